/*
Abstract:
Dates as the trace and the logs write them: ISO 8601 in UTC, to the millisecond.
*/

import Foundation

/// Formats `2026-11-26T10:43:11.573`: UTC, milliseconds cut (not rounded) so a time never moves
/// past the next event's.
///
/// The service writes one for every trace line and every process one per log line; Foundation's
/// `ISO8601FormatStyle` took longer than the rest of the line.
public enum ISO8601Timestamp {
    /// The date's text, without a zone designator; a date no clock reaches is clamped (``reachableSeconds(of:)``).
    public static func string(for date: Date) -> String {
        // To the microsecond first: 0.999 s is 998.999… ms in binary, and must not print as .998.
        let microseconds = Int64((reachableSeconds(of: date) * 1_000_000).rounded())
        let milliseconds = microseconds.floorDivided(by: 1000)
        let parts = utcParts(time_t(milliseconds.floorDivided(by: 1000)))
        let time = "\(padded(Int64(parts.tm_hour), 2)):\(padded(Int64(parts.tm_min), 2)):\(padded(Int64(parts.tm_sec), 2))"
        return "\(day(of: parts))T\(time).\(padded(milliseconds - milliseconds.floorDivided(by: 1000) * 1000, 3))"
    }

    /// The UTC calendar day of a date, `2026-11-26`: the date part of ``string(for:)``.
    ///
    /// The extension's runtime is charged to this day for each of its calls, where a `Calendar`
    /// and a formatted string took longer than the rest of the charge. A date no clock reaches is
    /// clamped (``reachableSeconds(of:)``).
    public static func day(for date: Date) -> String {
        day(of: utcParts(time_t(reachableSeconds(of: date).rounded(.down))))
    }

    /// A date's seconds since 1970, clamped to ±10^12 s (thirty thousand years) and `0` when not
    /// finite: no clock reaches past that, and no conversion of a date a record read from disk
    /// holds can trap.
    private static func reachableSeconds(of date: Date) -> Double {
        let seconds = date.timeIntervalSince1970
        return seconds.isFinite ? min(max(seconds, -1e12), 1e12) : 0
    }

    private static func utcParts(_ seconds: time_t) -> tm {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return parts
    }

    private static func day(of parts: tm) -> String {
        "\(padded(Int64(parts.tm_year) + 1900, 4))-\(padded(Int64(parts.tm_mon) + 1, 2))-\(padded(Int64(parts.tm_mday), 2))"
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

private extension Int64 {
    /// Division rounding toward negative infinity, so dates before 1970 keep a positive millisecond part.
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
