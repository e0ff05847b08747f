/*
Abstract:
When the service next sends an app's extension a periodic content request, from the app's launch history.
*/

import BackgroundAssetsIPC
import Foundation

/// Decides when an app's next periodic content request is due, from how recently and how often it is used.
///
/// All dates are device time (``DeviceClock``). The first tier whose conditions the app meets sets
/// the interval since the last periodic check (or, before any, since the last launch or install):
///
/// | last launch within | launches in the last 7 days | interval |
/// | --- | --- | --- |
/// | 2 days | 4 or more | 12 hours |
/// | 2 days | any | 1 day |
/// | 7 days | any | 3 days |
/// | 28 days | any | 7 days |
/// | longer ago | | none: checks stop until the app is launched again |
///
/// - Note: Apple says only that periodic checks follow app usage. These tiers are this stand-in's
///   choice: frequent users get fresh content twice a day; an app unused for four weeks costs nothing.
public struct PeriodicSchedule: Sendable, Equatable {
    /// One row of the table: how recent the last launch must be, how many recent launches, and the interval.
    public struct Tier: Sendable, Equatable {
        /// The last launch (or the install, for an app never launched) must be at most this long ago.
        public var lastLaunchWithin: TimeInterval
        /// At least this many launches in the last ``PeriodicSchedule/frequentUseWindow``.
        public var minimumRecentLaunches: Int
        /// The time between periodic checks.
        public var interval: TimeInterval

        /// Creates a tier.
        /// - Parameters:
        ///   - lastLaunchWithin: The longest time since the last launch, in seconds.
        ///   - minimumRecentLaunches: The fewest launches in the frequent-use window.
        ///   - interval: The time between checks, in seconds.
        public init(lastLaunchWithin: TimeInterval, minimumRecentLaunches: Int = 0, interval: TimeInterval) {
            self.lastLaunchWithin = lastLaunchWithin
            self.minimumRecentLaunches = minimumRecentLaunches
            self.interval = interval
        }
    }

    /// Why an app gets no periodic check.
    public enum Reason: String, Sendable, Equatable {
        /// The device is in low-power mode.
        case lowPowerMode
        /// Background app refresh is off, for every app or for this one.
        case backgroundAppRefreshOff
        /// The app is still installing; its essential downloads come first.
        case installing
        /// The app has not been launched for longer than the last tier allows.
        case unused
    }

    /// The outcome for one app.
    public enum Decision: Sendable, Equatable {
        /// A periodic check is due at this device time (now, if it is already overdue).
        case due(Date)
        /// No periodic check will be scheduled, and why.
        case never(Reason)
    }

    /// One day in seconds.
    public static let day: TimeInterval = 24 * 3600
    /// The window in which launches count towards frequent use.
    public static let frequentUseWindow: TimeInterval = 7 * day

    /// The tiers, tried in order.
    public var tiers: [Tier]

    /// The schedule with the tiers of the table above.
    public init(tiers: [Tier] = PeriodicSchedule.standardTiers) {
        self.tiers = tiers
    }

    /// The tiers of the table in the type's documentation.
    public static let standardTiers: [Tier] = [
        Tier(lastLaunchWithin: 2 * day, minimumRecentLaunches: 4, interval: day / 2),
        Tier(lastLaunchWithin: 2 * day, interval: day),
        Tier(lastLaunchWithin: 7 * day, interval: 3 * day),
        Tier(lastLaunchWithin: 28 * day, interval: 7 * day),
    ]

    /// The interval between checks for an app's usage, or `nil` when checks stop.
    /// - Parameters:
    ///   - launches: The app's recent launches (any order).
    ///   - installDate: When the app was installed; stands in for the last launch of an app never launched.
    ///   - now: The current device time.
    public func interval(launches: [Date], installDate: Date, now: Date) -> TimeInterval? {
        let lastUse = launches.max() ?? installDate
        let sinceLastUse = now.timeIntervalSince(lastUse)
        let recent = launches.filter { now.timeIntervalSince($0) <= Self.frequentUseWindow && $0 <= now }.count
        return tiers.first { sinceLastUse <= $0.lastLaunchWithin && recent >= $0.minimumRecentLaunches }?.interval
    }

    /// When an app's next periodic content request is due.
    /// - Parameters:
    ///   - app: The installed app, with its launch history and last periodic check.
    ///   - settings: The device's settings (low-power mode, background app refresh).
    ///   - now: The current device time.
    /// - Returns: ``Decision/due(_:)`` with a device time not before `now`, or ``Decision/never(_:)``.
    public func nextCheck(for app: InstalledApp, settings: DeviceSettings, now: Date) -> Decision {
        if settings.lowPowerMode { return .never(.lowPowerMode) }
        if !settings.allowsBackgroundAppRefresh(for: app.bundleIdentifier) { return .never(.backgroundAppRefreshOff) }
        if app.state == .installing { return .never(.installing) }
        guard let interval = interval(launches: app.launchHistory, installDate: app.installDate, now: now) else {
            return .never(.unused)
        }
        let since = app.lastPeriodicCheck ?? app.launchHistory.max() ?? app.installDate
        return .due(max(since.addingTimeInterval(interval), now))
    }
}
