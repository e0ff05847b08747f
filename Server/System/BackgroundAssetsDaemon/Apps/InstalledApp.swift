/*
Abstract:
The record of one installed app: its bundle, executables, install state, launches and extension runtime.
*/

import Foundation

/// One installed app, as `apps/ID/app.json` records it.
///
/// Dates are the service's device time (see ``DeviceClock``), so an accelerated clock ages launch
/// history and runtime budgets consistently.
public struct InstalledApp: Sendable, Equatable, Codable {
    /// Whether the app can be launched yet.
    public enum InstallState: String, Sendable, Codable {
        /// Essential downloads are still running; the launch gate waits.
        case installing
        /// Every essential download finished or failed (or the extension failed): the app may launch.
        case launchable
    }

    /// How many launch dates are kept: enough for ``PeriodicSchedule`` to see a week of heavy use.
    public static let launchHistoryLimit = 32

    /// The app's and its extension's validated Info.plists.
    public var bundle: AppBundleDescription
    /// The app's executable: inside its installed bundle (see ``InstalledBundle``), through which
    /// the app is launched so that `Bundle.main` is the installed Info.plist.
    public var appExecutable: URL
    /// The extension's executable, inside the installed app bundle; `nil` for an app without one.
    public var extensionExecutable: URL?
    /// The built executable the app was installed from, found beside the debug tool by
    /// `CFBundleExecutable`: started by a person, it moves itself into ``appExecutable``.
    public var builtAppExecutable: URL?
    /// The built executable the extension was installed from: the service links it into
    /// ``extensionExecutable`` again before each launch, so a rebuild is enough to run new code.
    public var builtExtensionExecutable: URL?
    /// The install state.
    public var state: InstallState
    /// When the app was installed, or last updated.
    public var installDate: Date
    /// When the app was first launched, or `nil` until then (the allowances apply until then).
    public var firstLaunchDate: Date?
    /// The most recent launches, oldest first, at most ``launchHistoryLimit``.
    public private(set) var launchHistory: [Date]
    /// When the last periodic content request was sent, or `nil` if none was.
    public var lastPeriodicCheck: Date?
    /// The pre-first-launch allowance accounting.
    public var allowance: DownloadAllowance
    /// The extension runtime used on the current day, for the daily budget.
    public private(set) var runtimeUsage: RuntimeUsage

    /// Creates the record of a freshly installed app, not yet launchable.
    /// - Parameters:
    ///   - bundle: The validated Info.plists.
    ///   - appExecutable: The app's executable.
    ///   - extensionExecutable: The extension's executable.
    ///   - installDate: The device time of the install.
    ///   - builtAppExecutable: The built executable the app was installed from, if not `appExecutable`.
    ///   - builtExtensionExecutable: The built executable the extension was installed from.
    public init(
        bundle: AppBundleDescription, appExecutable: URL, extensionExecutable: URL?, installDate: Date,
        builtAppExecutable: URL? = nil, builtExtensionExecutable: URL? = nil
    ) {
        self.bundle = bundle
        self.appExecutable = appExecutable
        self.extensionExecutable = extensionExecutable
        self.builtAppExecutable = builtAppExecutable
        self.builtExtensionExecutable = builtExtensionExecutable
        state = .installing
        self.installDate = installDate
        firstLaunchDate = nil
        launchHistory = []
        lastPeriodicCheck = nil
        allowance = DownloadAllowance(restrictions: bundle.app.restrictions)
        runtimeUsage = RuntimeUsage()
    }

    /// The app's `CFBundleIdentifier`, which names its folder.
    public var bundleIdentifier: String { bundle.app.bundleIdentifier }
    /// The app's `CFBundleVersion`.
    public var version: String { bundle.app.version }
    /// Whether the app has been launched at least once.
    public var hasLaunched: Bool { firstLaunchDate != nil }

    /// Whether installing `bundle` over this app is an update: its `CFBundleVersion` is newer than this one's.
    ///
    /// An equal version is a reinstall and an older one a downgrade; the install decides what to do with those.
    /// - Parameter bundle: The bundle about to be installed.
    /// - Returns: `true` only when both versions parse and the new one is greater.
    public func isUpdate(to bundle: AppBundleDescription) -> Bool {
        guard let current = BundleVersion(version), let new = BundleVersion(bundle.app.version) else { return false }
        return new > current
    }

    /// Records a launch: the first one lifts the allowances; every one feeds periodic scheduling.
    /// - Parameter date: The device time of the launch.
    public mutating func recordLaunch(at date: Date) {
        if firstLaunchDate == nil { firstLaunchDate = date }
        allowance.lift()
        launchHistory.append(date)
        launchHistory.sort()
        if launchHistory.count > Self.launchHistoryLimit {
            launchHistory.removeFirst(launchHistory.count - Self.launchHistoryLimit)
        }
    }

    /// Adds extension runtime to the budget of `date`'s day, starting a new day's count when the day changed.
    /// - Parameters:
    ///   - seconds: The runtime of one entry point, in seconds; negative or non-finite values count as zero.
    ///   - date: The device time the runtime ended.
    public mutating func recordExtensionRuntime(_ seconds: Double, at date: Date) {
        runtimeUsage.add(seconds, at: date)
    }

    /// The extension runtime already used on `date`'s day, in seconds.
    /// - Parameter date: A device time.
    public func extensionRuntimeUsed(on date: Date) -> Double { runtimeUsage.seconds(on: date) }

    /// Forgets today's extension runtime, as `backgroundassets-debug simulate` does.
    public mutating func resetExtensionRuntime() { runtimeUsage = RuntimeUsage() }

    /// Moves every date recorded in device time by the same amount, when the device's clock is put
    /// back: the install, the launches and the last periodic check keep their spacing, and the
    /// runtime budget starts a new day.
    /// - Parameter seconds: How far to move them; negative moves them back.
    public mutating func moveDeviceDates(by seconds: TimeInterval) {
        installDate.addTimeInterval(seconds)
        firstLaunchDate?.addTimeInterval(seconds)
        launchHistory = launchHistory.map { $0.addingTimeInterval(seconds) }
        lastPeriodicCheck?.addTimeInterval(seconds)
        runtimeUsage = RuntimeUsage()
    }

    /// Applies an update: a new bundle and executables, installing again, launches and usage kept.
    /// - Parameters:
    ///   - bundle: The new version's Info.plists.
    ///   - appExecutable: The new app executable.
    ///   - extensionExecutable: The new extension executable.
    ///   - date: The device time of the update.
    ///   - builtAppExecutable: The built executable the update was installed from, if not `appExecutable`.
    ///   - builtExtensionExecutable: The built executable the extension was installed from.
    public mutating func update(
        to bundle: AppBundleDescription, appExecutable: URL, extensionExecutable: URL?, at date: Date,
        builtAppExecutable: URL? = nil, builtExtensionExecutable: URL? = nil
    ) {
        self.bundle = bundle
        self.appExecutable = appExecutable
        self.extensionExecutable = extensionExecutable
        self.builtAppExecutable = builtAppExecutable
        self.builtExtensionExecutable = builtExtensionExecutable
        installDate = date
        state = .installing
        // An update of a launched app is unrestricted; one never launched keeps what it has left.
        if hasLaunched { allowance = DownloadAllowance(restrictions: bundle.app.restrictions, hasLaunched: true) }
    }
}
