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
    /// The date's text, without a zone designator.
    public static func string(for date: Date) -> String {
        // To the microsecond first: 0.999 s is 998.999… ms in binary, and must not print as .998.
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let milliseconds = microseconds.floorDivided(by: 1000)
        var seconds = time_t(milliseconds.floorDivided(by: 1000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let date = "\(padded(Int64(parts.tm_year) + 1900, 4))-\(padded(Int64(parts.tm_mon) + 1, 2))-\(padded(Int64(parts.tm_mday), 2))"
        let time = "\(padded(Int64(parts.tm_hour), 2)):\(padded(Int64(parts.tm_min), 2)):\(padded(Int64(parts.tm_sec), 2))"
        return "\(date)T\(time).\(padded(milliseconds - milliseconds.floorDivided(by: 1000) * 1000, 3))"
    }
}

private extension Int64 {
    /// Division rounding toward negative infinity, so dates before 1970 keep a positive millisecond part.
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
