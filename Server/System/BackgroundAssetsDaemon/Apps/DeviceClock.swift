/*
Abstract:
The service's device time: real time, optionally sped up by config.json's timeScale so a week passes in minutes.
*/

import Foundation

/// Maps real time to the simulated device's time, which runs `timeScale` times faster from an origin.
///
/// Everything that ages (launch history, periodic checks, the daily runtime budget) is measured in
/// device time, so with `timeScale` 10080 a week of periodic checks happens in one real minute, and
/// a due date in device time converts back to a real delay with ``realInterval(forDeviceInterval:)``.
/// - Note: Apple's devices have no such knob; it exists so the periodic behaviour can be watched and tested.
public struct DeviceClock: Sendable, Equatable {
    /// The real time at which the clock starts.
    public let origin: Date
    /// The device time at ``origin``: the real time, unless device time had run ahead before a restart.
    public let deviceOrigin: Date
    /// How many device seconds pass per real second; 1 is real time.
    public let timeScale: Double

    /// Creates a clock.
    /// - Parameters:
    ///   - origin: The real time from which device time runs faster; usually the service's start.
    ///   - deviceOrigin: The device time at `origin`; by default `origin` itself.
    ///   - timeScale: Device seconds per real second; a value that is not finite and positive means 1.
    public init(origin: Date, deviceOrigin: Date? = nil, timeScale: Double = 1) {
        self.origin = origin
        self.deviceOrigin = deviceOrigin ?? origin
        self.timeScale = timeScale.isFinite && timeScale > 0 ? timeScale : 1
    }

    /// The device time at a real time.
    /// - Parameter realDate: A real time, such as `Date()`.
    /// - Returns: `deviceOrigin` plus the real time elapsed since `origin`, times `timeScale`.
    public func deviceTime(at realDate: Date) -> Date {
        deviceOrigin.addingTimeInterval(realDate.timeIntervalSince(origin) * timeScale)
    }

    /// The real time at which the device clock shows a time.
    /// - Parameter deviceDate: A device time, such as a periodic check's due date.
    /// - Returns: The real time it corresponds to.
    public func realTime(at deviceDate: Date) -> Date {
        origin.addingTimeInterval(deviceDate.timeIntervalSince(deviceOrigin) / timeScale)
    }

    /// A clock that starts now but never behind the latest device time already recorded, so an
    /// accelerated clock does not run backwards when the service restarts.
    /// - Parameters:
    ///   - now: The real time of the start.
    ///   - latestRecorded: The latest device time in the records (launches, checks), if any.
    ///   - timeScale: Device seconds per real second.
    public static func resuming(at now: Date, latestRecorded: Date?, timeScale: Double) -> DeviceClock {
        DeviceClock(origin: now, deviceOrigin: max(now, latestRecorded ?? now), timeScale: timeScale)
    }

    /// The real seconds in which `deviceInterval` device seconds pass.
    /// - Parameter deviceInterval: Device seconds.
    /// - Returns: The real seconds, never negative.
    public func realInterval(forDeviceInterval deviceInterval: TimeInterval) -> TimeInterval {
        max(0, deviceInterval / timeScale)
    }
}
