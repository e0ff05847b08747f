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
    ///   - now: The device time.
    public static func of(
        _ task: PendingTask, settings: DeviceSettings, isLaunchable: Bool, now: Date
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
        if let begin = task.request.earliestBeginDate, begin > now { return .waiting(until: begin) }
        return .ready
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
