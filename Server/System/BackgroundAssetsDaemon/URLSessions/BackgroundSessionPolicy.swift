/*
Abstract:
When a background session's transfer may run, when the app is launched for its events, and when a task has run too long.
*/

import BackgroundAssetsIPC
import Foundation

/// The system's decisions about background sessions, as values: no I/O, no clock.
public enum BackgroundSessionPolicy {
    /// Whether a task's transfer may run now, and if not, until when or why not.
    public enum Eligibility: Sendable, Equatable {
        /// It may run now.
        case now
        /// It may run at this device time.
        case notBefore(Date)
        /// It waits until the device's settings change; the reason says which.
        case waiting(String)
    }

    /// Decides for one task, as the system does before it starts a transfer.
    ///
    /// Every transfer waits for the network (background sessions wait for connectivity) and for its
    /// `earliestBeginDate`. A discretionary session's transfer also waits for external power and for
    /// Low Power Mode to be off: Apple says the system may delay such transfers "until the device is
    /// plugged in and connected to Wi-Fi"; this device has one network.
    public static func eligibility(of task: BackgroundTaskSnapshot, settings: BackgroundSessionSettings,
                                   device: DeviceSettings, now: Date) -> Eligibility {
        if !device.networkReachable { return .waiting("the network is not reachable") }
        if settings.isDiscretionary {
            if !device.externalPower { return .waiting("the session is discretionary and the device is on battery") }
            if device.lowPowerMode { return .waiting("the session is discretionary and Low Power Mode is on") }
        }
        if let date = task.earliestBeginDate, date > now { return .notBefore(date) }
        return .now
    }

    /// Whether a session's ended task launches the app in the background: the session asks for
    /// launch events, no process of the app has the session or runs at all (a running app hears of
    /// the events when it makes the session), and a person did not force-quit the app.
    public static func launchesApp(for settings: BackgroundSessionSettings, isAttached: Bool, isRunning: Bool,
                                   wasForceQuit: Bool) -> Bool {
        settings.sendsLaunchEvents && !isAttached && !isRunning && !wasForceQuit
    }

    /// Whether a task has run longer than its session's `timeoutIntervalForResource` allows.
    public static func hasExpired(started: Date?, settings: BackgroundSessionSettings, now: Date) -> Bool {
        guard let started else { return false }
        return now.timeIntervalSince(started) > settings.timeoutIntervalForResource
    }

    /// Foundation's `NSURLErrorTimedOut`, the failure of a task past its resource timeout.
    public static let timedOutCode = -1001

    /// The identifier of a task's transfer in the shared queue; no Background Assets identifier
    /// starts with it, and ``task(fromQueueIdentifier:)`` reads it back.
    public static func queueIdentifier(for key: BackgroundSessionKey, task: Int) -> String {
        "\(queuePrefix)\(task).\(key.sessionIdentifier)"
    }

    /// The session and task of a queue identifier this policy made.
    public static func task(fromQueueIdentifier identifier: String) -> (session: String, task: Int)? {
        guard identifier.hasPrefix(queuePrefix) else { return nil }
        let rest = identifier.dropFirst(queuePrefix.count)
        guard let dot = rest.firstIndex(of: "."), let task = Int(rest[..<dot]), task > 0 else { return nil }
        let session = String(rest[rest.index(after: dot)...])
        return session.isEmpty ? nil : (session, task)
    }

    private static let queuePrefix = "urlsession."
}
