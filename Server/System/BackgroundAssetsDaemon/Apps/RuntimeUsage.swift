/*
Abstract:
An app extension's runtime used on one day, for the daily runtime budget.
*/

import BackgroundAssetsIPC
import Foundation

/// The extension runtime an app used on one day.
///
/// - Note: Apple does not say when its daily budget resets. Days here are UTC calendar days of
///   the service's device time, so the reset is the same on every machine and under an
///   accelerated clock.
public struct RuntimeUsage: Sendable, Equatable, Codable {
    /// The UTC day counted, as `yyyy-MM-dd`, or `nil` when nothing was counted yet.
    public private(set) var day: String?
    /// The seconds used on ``day``.
    public private(set) var seconds: Double

    /// No runtime used.
    public init() {
        day = nil
        seconds = 0
    }

    /// Adds runtime, restarting the count when `date` falls on another day.
    /// - Parameters:
    ///   - runtime: Seconds of runtime; negative, NaN or infinite values count as zero.
    ///   - date: When the runtime ended.
    public mutating func add(_ runtime: Double, at date: Date) {
        let today = Self.dayKey(date)
        if day != today {
            day = today
            seconds = 0
        }
        if runtime.isFinite, runtime > 0 { seconds += runtime }
    }

    /// The seconds used on `date`'s day: zero when the count is for another day.
    /// - Parameter date: Any time of the day asked about.
    public func seconds(on date: Date) -> Double { day == Self.dayKey(date) ? seconds : 0 }

    /// The UTC calendar day of a date, as `yyyy-MM-dd`.
    static func dayKey(_ date: Date) -> String {
        ISO8601Timestamp.day(for: date)
    }
}
