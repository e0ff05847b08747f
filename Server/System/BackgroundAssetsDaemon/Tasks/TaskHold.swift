/*
Abstract:
The rule that holds a pending Background Tasks request back, named for `tasks` and its JSON.
*/

import Foundation

/// Why a pending task does not run now: the first of the device's rules it does not meet.
public enum TaskHold: Sendable, Equatable {
    /// The app is not installed, or is still installing.
    case notLaunchable
    /// Low Power Mode is on.
    case lowPowerMode
    /// Background App Refresh is off for the device or the app.
    case backgroundRefreshOff
    /// A refresh task of an app unused for 28 days waits for the app's next launch.
    case appUnused
    /// A processing task that requires external power, on a device on battery.
    case needsExternalPower
    /// A processing task that requires the network, with the network unreachable.
    case needsNetwork
    /// The request's earliest begin date is ahead (device time).
    case earliestBegin(Date)
    /// A task with the same identifier ran less than the device's spacing ago; the date is the
    /// first moment the next may run (device time).
    case spacing(notBefore: Date)
    /// The app's refresh tasks are spaced by how much it is used; the date is the first moment the
    /// next may run (device time).
    case usage(notBefore: Date)
    /// A process of the app runs in the foreground: tasks run while the app is in the background.
    case appInForeground

    /// The device time from which the hold lifts by itself, or `nil` when a change of settings or
    /// of the app's state lifts it.
    public var until: Date? {
        switch self {
        case let .earliestBegin(date), let .spacing(date), let .usage(date): date
        default: nil
        }
    }

    /// A stable name for the rule, for `tasks --json`.
    public var rule: String {
        switch self {
        case .notLaunchable: "notLaunchable"
        case .lowPowerMode: "lowPowerMode"
        case .backgroundRefreshOff: "backgroundRefreshOff"
        case .appUnused: "appUnused"
        case .needsExternalPower: "needsExternalPower"
        case .needsNetwork: "needsNetwork"
        case .earliestBegin: "earliestBegin"
        case .spacing: "spacing"
        case .usage: "usage"
        case .appInForeground: "appInForeground"
        }
    }

    /// The rule as `tasks` says it: `waiting: …`.
    public var summary: String {
        switch self {
        case .notLaunchable: "waiting: the app is not launchable (not installed, or still installing)"
        case .lowPowerMode: "waiting: Low Power Mode is on"
        case .backgroundRefreshOff: "waiting: background app refresh is off"
        case .appUnused: "waiting: the app has not been launched for 28 days; its refresh waits for the next launch"
        case .needsExternalPower: "waiting: needs external power, and the device is on battery"
        case .needsNetwork: "waiting: needs network, and the network is not reachable"
        case let .earliestBegin(date): "waiting: earliest begin \(date.formatted(.iso8601)) (device time)"
        case let .spacing(date): "waiting: spacing, next run not before \(date.formatted(.iso8601)) (device time)"
        case let .usage(date):
            "waiting: refreshes spaced by app use, next run not before \(date.formatted(.iso8601)) (device time)"
        case .appInForeground: "waiting: app in the foreground; it runs once the app has left"
        }
    }
}
