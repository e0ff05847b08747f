/*
Abstract:
An app extension's runtime used on one day, for the daily runtime budget.
*/

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
    ///
    /// Worked out from the days since 1970 in the Gregorian calendar, as `Calendar` has it since
    /// 1582 (before, where it switches to the Julian calendar, no device clock is set): every
    /// extension call's runtime is charged to its day, and a `Calendar` and a formatted string for
    /// each of them cost more than the rest of the charge.
    static func dayKey(_ date: Date) -> String {
        // Beyond ±10^14 s (three million years) a date is no day anyone asks about; it is clamped,
        // so no conversion can trap on a date read from a record.
        let seconds = date.timeIntervalSince1970.isFinite ? min(max(date.timeIntervalSince1970, -1e14), 1e14) : 0
        let days = Int((seconds / 86_400).rounded(.down))
        let (year, month, day) = civilDate(daysSince1970: days)
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
    }

    /// The year, month and day of a count of days since 1970-01-01, in the proleptic Gregorian calendar.
    private static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        // Counted in eras of 400 years from 0000-03-01, so a leap day ends each year's count.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// A number with leading zeros to `width` digits, as `%0Nd` writes it.
    private static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number.magnitude)
        let zeros = String(repeating: "0", count: max(0, width - digits.count - (number < 0 ? 1 : 0)))
        return (number < 0 ? "-" : "") + zeros + digits
    }
}
