/*
Abstract:
An installed app as the service reports it: install state and progress, periodic checks, extension runtime.
*/

import Foundation

/// One installed app, as `backgroundassets-debug status` and the launch gate see it.
public struct AppStatus: Codable, Sendable, Equatable {
    /// Whether the app can be launched yet.
    public enum InstallState: String, Codable, Sendable {
        /// The install (or update) is running: the app is not launchable yet.
        case installing
        /// The app can be launched.
        case launchable
    }

    /// The app's `CFBundleIdentifier`.
    public var bundleIdentifier: String
    /// The app's `CFBundleVersion`.
    public var version: String
    /// The app group the app and its extension share.
    public var appGroup: String
    /// The install state.
    public var state: InstallState
    /// The install's progress; complete once the app is launchable.
    public var progress: InstallProgress
    /// Whether the app has been launched since it was installed (the allowances are lifted then).
    public var hasLaunched: Bool
    /// When the next periodic content request is due, in real time, or `nil` when none is scheduled.
    public var nextPeriodicCheck: Date?
    /// Why no periodic content request is scheduled, when none is.
    public var periodicCheckSuspendedBecause: String?
    /// The extension runtime the app may still use today, in seconds.
    public var runtimeBudgetLeft: Double
    /// The extension's process id while it runs.
    public var extensionProcessIdentifier: Int32?
    /// Why the extension was last stopped by force (a runtime or memory limit, a crash), if it was.
    public var lastExtensionTermination: String?
    /// One paragraph on the last install or update: what was downloaded and what failed.
    public var installSummary: String?
    /// Why the app's last Background Tasks task ended without completing (its runtime limit, a crash), if one did.
    public var lastTaskEnding: String?
    /// The app's managed asset packs, installed or on their way; `nil` for an app without any.
    public var assetPacks: [AssetPackStatus]?
    /// Whether the app was installed with a downloader extension, which is all the runtime budget
    /// is for; `nil` from a service that does not say, taken as `true`.
    public var hasDownloaderExtension: Bool?
    /// Why the last install or update got no content: its manifest could not be fetched, so the
    /// extension was never asked for downloads. `nil` when it got its content, or from a service that does not say.
    public var installContentFailure: String?

    /// Creates an app status.
    public init(
        bundleIdentifier: String, version: String, appGroup: String, state: InstallState, progress: InstallProgress,
        hasLaunched: Bool, nextPeriodicCheck: Date? = nil, periodicCheckSuspendedBecause: String? = nil,
        runtimeBudgetLeft: Double, extensionProcessIdentifier: Int32? = nil, lastExtensionTermination: String? = nil,
        installSummary: String? = nil, lastTaskEnding: String? = nil, assetPacks: [AssetPackStatus]? = nil,
        hasDownloaderExtension: Bool? = nil, installContentFailure: String? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.version = version
        self.appGroup = appGroup
        self.state = state
        self.progress = progress
        self.hasLaunched = hasLaunched
        self.nextPeriodicCheck = nextPeriodicCheck
        self.periodicCheckSuspendedBecause = periodicCheckSuspendedBecause
        self.runtimeBudgetLeft = runtimeBudgetLeft
        self.extensionProcessIdentifier = extensionProcessIdentifier
        self.lastExtensionTermination = lastExtensionTermination
        self.installSummary = installSummary
        self.lastTaskEnding = lastTaskEnding
        self.assetPacks = assetPacks
        self.hasDownloaderExtension = hasDownloaderExtension
        self.installContentFailure = installContentFailure
    }
}

/// How far an install has come, in bytes: the app's own download, then its essential assets.
///
/// Until the extension has returned its essential downloads, their share is sized by the app's
/// `BAEssentialDownloadAllowance`; afterwards by their real sizes.
public struct InstallProgress: Codable, Sendable, Equatable {
    /// What the install is doing now.
    public enum Phase: String, Codable, Sendable {
        /// Downloading the app itself (instant here: the executables are local).
        case downloadingApp
        /// The extension is asked for its downloads.
        case requestingContent
        /// Essential downloads are running.
        case downloadingEssentialAssets
        /// Done: the app is launchable.
        case complete
    }

    /// What the install is doing now.
    public var phase: Phase
    /// The bytes done, the app's share included.
    public var completedBytes: Int64
    /// The bytes in all, the app's share included.
    public var totalBytes: Int64
    /// The essential downloads that finished.
    public var essentialFinished: Int
    /// The essential downloads that failed.
    public var essentialFailed: Int
    /// The essential downloads in all.
    public var essentialTotal: Int
    /// The app's own download, the first part of `totalBytes` (`BAMaxInstallSize` less
    /// `BAEssentialMaxInstallSize`); `nil` from a service that did not say.
    public var appBytes: Int64?
    /// Whether the essential part is the essential downloads' own sizes; `false` while
    /// `BAEssentialDownloadAllowance` stands in for them, until the extension has returned them.
    public var essentialSizesKnown: Bool?
    /// Whether the essential downloads are asset packs, which the system downloads itself.
    public var essentialArePacks: Bool?

    /// Creates a progress value.
    public init(
        phase: Phase, completedBytes: Int64, totalBytes: Int64, essentialFinished: Int = 0, essentialFailed: Int = 0,
        essentialTotal: Int = 0, appBytes: Int64? = nil, essentialSizesKnown: Bool? = nil,
        essentialArePacks: Bool? = nil
    ) {
        self.phase = phase
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.essentialFinished = essentialFinished
        self.essentialFailed = essentialFailed
        self.essentialTotal = essentialTotal
        self.appBytes = appBytes
        self.essentialSizesKnown = essentialSizesKnown
        self.essentialArePacks = essentialArePacks
    }

    /// The fraction done, from 0 to 1.
    public var fractionCompleted: Double {
        guard totalBytes > 0 else { return phase == .complete ? 1 : 0 }
        return min(1, max(0, Double(completedBytes) / Double(totalBytes)))
    }
}
