/*
Abstract:
The date components a calendar trigger matches, as plain numbers both the framework and the service read.
*/

import Foundation

/// The fields of `UNCalendarNotificationTrigger`'s `dateComponents` that decide when it fires.
///
/// Numbers, not Foundation's `DateComponents`, so the wire and the store hold only what matters:
/// every field left `nil` matches any value, as in `Calendar.nextDate(after:matching:matchingPolicy:)`.
public struct NotificationDateMatch: Codable, Sendable, Hashable {
    public var year: Int?
    public var month: Int?
    public var day: Int?
    public var hour: Int?
    public var minute: Int?
    public var second: Int?
    /// 1 is Sunday, as in the Gregorian calendar's `weekday`.
    public var weekday: Int?
    public var weekdayOrdinal: Int?
    public var weekOfMonth: Int?
    public var weekOfYear: Int?
    /// The time zone the fields are in (its identifier); `nil` for the device's.
    public var timeZone: String?

    /// Creates a match from its fields.
    public init(year: Int? = nil, month: Int? = nil, day: Int? = nil, hour: Int? = nil, minute: Int? = nil, second: Int? = nil,
                weekday: Int? = nil, weekdayOrdinal: Int? = nil, weekOfMonth: Int? = nil, weekOfYear: Int? = nil,
                timeZone: String? = nil) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.weekday = weekday
        self.weekdayOrdinal = weekdayOrdinal
        self.weekOfMonth = weekOfMonth
        self.weekOfYear = weekOfYear
        self.timeZone = timeZone
    }

    /// The fields as Foundation's components, in the Gregorian calendar.
    public var dateComponents: DateComponents {
        DateComponents(calendar: calendar, timeZone: calendar.timeZone, year: year, month: month, day: day, hour: hour,
                       minute: minute, second: second, weekday: weekday, weekdayOrdinal: weekdayOrdinal,
                       weekOfMonth: weekOfMonth, weekOfYear: weekOfYear)
    }

    /// The Gregorian calendar in the match's time zone.
    public var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        if let timeZone, let zone = TimeZone(identifier: timeZone) { calendar.timeZone = zone }
        return calendar
    }

    /// The first date after `date` whose fields match, or `nil` when none will.
    public func nextDate(after date: Date) -> Date? {
        var components = dateComponents
        // The calendar and time zone decide how the fields read; they are not fields to match.
        components.calendar = nil
        components.timeZone = nil
        return calendar.nextDate(after: date, matching: components, matchingPolicy: .nextTime)
    }

    /// Why a calendar trigger cannot be scheduled, or `nil`: it needs a field to match, in range.
    public var refusal: String? {
        let fields = [year, month, day, hour, minute, second, weekday, weekdayOrdinal, weekOfMonth, weekOfYear]
        if fields.allSatisfy({ $0 == nil }) {
            return "The dateComponents of a UNCalendarNotificationTrigger name no field to match; set at least one, "
                + "such as hour and minute for a daily notification."
        }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            return "The dateComponents of a UNCalendarNotificationTrigger name the time zone \(timeZone), which this device does not know."
        }
        let ranges: [(String, Int?, ClosedRange<Int>)] = [
            ("month", month, 1...12), ("day", day, 1...31), ("hour", hour, 0...23), ("minute", minute, 0...59),
            ("second", second, 0...59), ("weekday", weekday, 1...7), ("weekOfMonth", weekOfMonth, 0...6),
            ("weekOfYear", weekOfYear, 1...53), ("weekdayOrdinal", weekdayOrdinal, -6...6),
        ]
        for (name, value, range) in ranges {
            if let value, !range.contains(value) {
                return "The dateComponents of a UNCalendarNotificationTrigger have \(name) \(value), outside \(range.lowerBound)...\(range.upperBound)."
            }
        }
        return nil
    }
}
