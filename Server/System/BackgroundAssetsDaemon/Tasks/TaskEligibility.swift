/*
Abstract:
When a pending task may run: its earliest begin date, the device's settings, and what it requires.
*/

import BackgroundAssetsIPC
import Foundation

/// Whether a pending task may run now, and if not, until when or why not.
public enum TaskEligibility: Sendable, Equatable {
    /// It may run now.
    case ready
    /// It may run at this device time, if nothing else changes.
    case waiting(until: Date)
    /// It may not run until a setting changes; the reason says which.
    case blocked(String)

    /// Decides for one task, as the system does before launching an app in the background.
    ///
    /// A refresh task needs background app refresh on (for the app too) and Low Power Mode off.
    /// A processing task also needs external power or the network when it asks for them.
    /// - Parameters:
    ///   - task: The pending task.
    ///   - settings: The device settings.
    ///   - isLaunchable: Whether the app is installed and not installing.
    ///   - usage: For a refresh task, how the app's use spaces its refreshes; `nil` for no spacing.
    ///   - now: The device time.
    public static func of(
        _ task: PendingTask, settings: DeviceSettings, isLaunchable: Bool, usage: RefreshUsage? = nil, now: Date
    ) -> TaskEligibility {
        guard isLaunchable else { return .blocked("the app is not launchable (not installed, or still installing)") }
        if settings.lowPowerMode { return .blocked("Low Power Mode is on") }
        if !settings.allowsBackgroundAppRefresh(for: task.bundleIdentifier) {
            return .blocked("background app refresh is off")
        }
        if task.request.kind == .processing {
            if task.request.requiresExternalPower, !settings.externalPower {
                return .blocked("it requires external power and the device is on battery")
            }
            if task.request.requiresNetworkConnectivity, !settings.networkReachable {
                return .blocked("it requires the network and the network is not reachable")
            }
        }
        var notBefore = task.request.earliestBeginDate ?? .distantPast
        if task.request.kind == .appRefresh, let usage {
            guard let spacing = usage.spacing else {
                return .blocked("the app has not been launched for 28 days; its refresh waits for the next launch")
            }
            if let last = usage.lastRefresh { notBefore = max(notBefore, last.addingTimeInterval(spacing)) }
        }
        return notBefore > now ? .waiting(until: notBefore) : .ready
    }

    /// A short sentence for `status` and `tasks`.
    public var summary: String {
        switch self {
        case .ready: "may run now"
        case let .waiting(date): "may run from \(date.formatted(.iso8601)) (device time)"
        case let .blocked(reason): "waits: \(reason)"
        }
    }
}

/// How often an app's refresh tasks may run, from how much it is used, like periodic checks.
///
/// Apple says refresh tasks follow app usage. Here the spacing is a quarter of the periodic-check
/// interval of the app's usage tier: 3 hours for an app launched often, 6 for one launched in the last
/// 2 days, 18 for the last week, 42 for the last 4 weeks, and none at all after that.
public struct RefreshUsage: Sendable, Equatable {
    /// The least time between two refresh tasks of the app, or `nil` when the app is unused.
    public var spacing: TimeInterval?
    /// When the app's last refresh task ran (device time), if one has.
    public var lastRefresh: Date?

    /// Creates the usage of an app.
    /// - Parameters:
    ///   - periodicInterval: The app's periodic-check interval (``PeriodicSchedule/interval(launches:installDate:now:)``).
    ///   - lastRefresh: When its last refresh task ran.
    public init(periodicInterval: TimeInterval?, lastRefresh: Date?) {
        spacing = periodicInterval.map { $0 / 4 }
        self.lastRefresh = lastRefresh
    }
}
