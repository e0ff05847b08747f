/*
Abstract:
The times `trace --since` and `--until` accept: now, a while ago, a time of day as the trace prints it, or a full date.
*/

import BackgroundAssetsIPC
import Foundation

/// A moment that narrows the trace: `now`, a duration ago (`90s`, `5m`, `2h`, `1d`), a time of day
/// in UTC as `trace` prints it (`14:07:02`, `14:07:02.841`), an ISO 8601 date and time
/// (`2026-11-24T14:07:02Z`), or the last time an event happened (`last-install`, `last-appLaunched`).
struct TraceTimeBound: Equatable, Sendable {
    /// What was written, for messages.
    let text: String
    private let resolve: Resolution

    private enum Resolution: Equatable, Sendable {
        case now
        case ago(TimeInterval)
        case timeOfDay(TimeInterval)
        case date(Date)
        case lastEvent(String)
    }

    /// Reads a bound.
    /// - Parameters:
    ///   - text: The option's value.
    ///   - option: The option's name, for the message.
    /// - Throws: A usage error that lists the accepted forms.
    init(_ text: String, option: String) throws(DebugToolError) {
        self.text = text
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "now" {
            resolve = .now
        } else if let seconds = Self.duration(trimmed) {
            resolve = .ago(seconds)
        } else if let seconds = Self.timeOfDay(trimmed) {
            resolve = .timeOfDay(seconds)
        } else if let date = Self.date(trimmed) {
            resolve = .date(date)
        } else if trimmed.hasPrefix("last-"), trimmed.count > 5 {
            resolve = .lastEvent(String(trimmed.dropFirst(5)))
        } else {
            throw .usage("""
                \(option) takes now, a time ago such as 90s, 5m, 2h or 1d, a time of day in UTC as trace prints \
                it (14:07:02), a date such as 2026-11-24T14:07:02Z, or last-EVENT for the last time an event \
                happened (last-install); not \(text.debugDescription).
                """)
        }
    }

    /// The moment the bound names.
    /// - Parameters:
    ///   - now: The current time.
    ///   - entries: The trace, for `last-EVENT`.
    /// - Returns: For a time of day, its latest occurrence that is not after `now`; for `last-EVENT`,
    ///   the time of that event's last entry, or `nil` when the trace has none.
    func date(relativeTo now: Date, in entries: [TraceEntry] = []) -> Date? {
        switch resolve {
        case let .lastEvent(event): return entries.last { $0.event == event }?.time
        case .now: return now
        case let .ago(seconds): return now.addingTimeInterval(-seconds)
        case let .date(date): return date
        case let .timeOfDay(seconds):
            let day = (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
            let today = Date(timeIntervalSince1970: day + seconds)
            return today > now ? today.addingTimeInterval(-86_400) : today
        }
    }

    private static func duration(_ text: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let value = Double(text.dropLast()), value >= 0,
              value.isFinite
        else { return nil }
        return value * unit
    }

    private static func timeOfDay(_ text: String) -> TimeInterval? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), let hours = Int(parts[0]), let minutes = Int(parts[1]),
              (0..<24).contains(hours), (0..<60).contains(minutes), parts[0].count == 2, parts[1].count == 2
        else { return nil }
        var seconds = 0.0
        if parts.count == 3 {
            guard let value = Double(parts[2]), value >= 0, value < 60, parts[2].first?.isNumber == true else { return nil }
            seconds = value
        }
        return Double(hours * 3600 + minutes * 60) + seconds
    }

    private static func date(_ text: String) -> Date? {
        let zoned = text.hasSuffix("Z") || text.range(of: #"[+-]\d\d:?\d\d$"#, options: .regularExpression) != nil
            ? text : text + "Z"
        let styles = [
            Date.ISO8601FormatStyle(includingFractionalSeconds: true),
            Date.ISO8601FormatStyle(),
        ]
        return styles.lazy.compactMap { try? $0.parse(zoned) }.first
    }
}

extension ArgumentConversion where Value == TraceTimeBound {
    /// A time bound of `--since` or `--until`, refused with the forms it may take.
    static var timeBound: Self {
        Self { text, name throws(UsageError) in
            do throws(DebugToolError) {
                return try TraceTimeBound(text, option: name)
            } catch {
                throw UsageError(error.message)
            }
        }
    }
}
