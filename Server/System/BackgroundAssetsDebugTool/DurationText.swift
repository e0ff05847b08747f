/*
Abstract:
Short spans of time for people: "4 min 30 s", "in 3 h 12 min".
*/

import Foundation

/// Writes spans of time the way `status` shows them: the two largest units, never a fraction.
enum DurationText {
    /// A span such as `45 s`, `4 min 30 s`, `3 h 12 min` or `2 d 5 h`.
    /// - Parameter seconds: The span; negative values count as zero.
    /// - Returns: The two largest non-trivial units.
    static func duration(_ seconds: Double) -> String {
        let total = seconds.isFinite ? max(0, Int(seconds.rounded(.down))) : 0
        let (days, hours, minutes, rest) = (total / 86_400, total % 86_400 / 3_600, total % 3_600 / 60, total % 60)
        if days > 0 { return hours > 0 ? "\(days) d \(hours) h" : "\(days) d" }
        if hours > 0 { return minutes > 0 ? "\(hours) h \(minutes) min" : "\(hours) h" }
        if minutes > 0 { return rest > 0 ? "\(minutes) min \(rest) s" : "\(minutes) min" }
        return "\(rest) s"
    }

    /// When something is due, relative to now: `in 3 h 12 min`, or `due now` once the time has come.
    /// - Parameters:
    ///   - date: When it is due.
    ///   - now: The present, passed in so tests can fix it.
    /// - Returns: The relative time.
    static func relative(_ date: Date, now: Date) -> String {
        let seconds = date.timeIntervalSince(now)
        // Under a second away reads better as now than as "in 0 s".
        return seconds < 1 ? "due now" : "in " + duration(seconds)
    }
}
