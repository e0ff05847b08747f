/*
Abstract:
When a pending task may run: the device's settings, what it requires, its dates and spacing, and where its app is.
*/

import BackgroundAssetsIPC
import Foundation

/// Whether a pending task may run now, and if not, the rule that holds it.
public enum TaskEligibility: Sendable, Equatable {
    /// It may run now.
    case ready
    /// It may not run yet; the hold says which rule, and until when if time alone lifts it.
    case held(TaskHold)

    /// Decides for one task, as the system does before launching an app in the background.
    ///
    /// Every task needs the app launchable, Low Power Mode off and background app refresh on (for
    /// the app too). A processing task also needs external power or the network when it asks for
    /// them, and a refresh task of an app unused for 28 days waits for its next launch. Then time:
    /// the earliest begin date, the spacing since the identifier last ran, and for a refresh task
    /// the spacing its app's use gives; the latest of them holds it. Last, no task runs while the
    /// app is in the foreground: the system runs tasks in the background.
    /// - Parameters:
    ///   - task: The pending task.
    ///   - settings: The device settings.
    ///   - isLaunchable: Whether the app is installed and not installing.
    ///   - usage: For a refresh task, how the app's use spaces its refreshes; `nil` for no such spacing.
    ///   - lastRun: When a task with this identifier last ran for the app (device time), if one has.
    ///   - spacing: The least device time between two runs of one identifier (`taskRunSpacing`).
    ///   - isAppInForeground: Whether a process of the app runs that the service did not launch in the background.
    ///   - now: The device time.
    public static func of(
        _ task: PendingTask, settings: DeviceSettings, isLaunchable: Bool, usage: RefreshUsage? = nil,
        lastRun: Date? = nil, spacing: TimeInterval = 0, isAppInForeground: Bool = false, now: Date
    ) -> TaskEligibility {
        guard isLaunchable else { return .held(.notLaunchable) }
        if settings.lowPowerMode { return .held(.lowPowerMode) }
        if !settings.allowsBackgroundAppRefresh(for: task.bundleIdentifier) { return .held(.backgroundRefreshOff) }
        if task.request.kind == .processing {
            if task.request.requiresExternalPower, !settings.externalPower { return .held(.needsExternalPower) }
            if task.request.requiresNetworkConnectivity, !settings.networkReachable { return .held(.needsNetwork) }
        }
        // The time rules in the order `tasks` names them when two end at the same moment.
        var timeHolds: [TaskHold] = []
        if let begin = task.request.earliestBeginDate { timeHolds.append(.earliestBegin(begin)) }
        if let lastRun, spacing > 0 { timeHolds.append(.spacing(notBefore: lastRun.addingTimeInterval(spacing))) }
        if task.request.kind == .appRefresh, let usage {
            guard let usageSpacing = usage.spacing else { return .held(.appUnused) }
            if let last = usage.lastRefresh {
                timeHolds.append(.usage(notBefore: last.addingTimeInterval(usageSpacing)))
            }
        }
        let latest = timeHolds.reduce(nil as TaskHold?) { latest, hold in
            guard let date = hold.until, date > now else { return latest }
            guard let current = latest?.until else { return hold }
            return date > current ? hold : latest
        }
        if let latest { return .held(latest) }
        return isAppInForeground ? .held(.appInForeground) : .ready
    }

    /// A short sentence for `status` and `tasks`.
    public var summary: String {
        switch self {
        case .ready: "may run now"
        case let .held(hold): hold.summary
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
