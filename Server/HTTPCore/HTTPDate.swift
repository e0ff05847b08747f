/*
Abstract:
HTTP dates: IMF-fixdate for sending, and the three forms RFC 9110 requires recipients to accept.
*/

import Foundation

/// Formats and parses HTTP dates without Foundation's date formatters, which are slow per request.
public enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats seconds since 1970 as an IMF-fixdate, for example `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func format(_ secondsSince1970: Int64) -> String {
        var seconds = time_t(secondsSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// The current time as an IMF-fixdate, for the `Date` header.
    public static func now() -> String {
        format(Int64(time(nil)))
    }

    /// Parses an IMF-fixdate, an obsolete RFC 850 date or an asctime date into seconds since 1970.
    /// - Returns: `nil` when the text is none of the three forms.
    public static func parse(_ text: String) -> Int64? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        switch fields.count {
        case 6 where fields[0].hasSuffix(",") && fields[5] == "GMT":
            // Sun, 06 Nov 1994 08:49:37 GMT
            return make(day: fields[1], month: fields[2], year: fields[3], time: fields[4], twoDigitYear: false)
        case 4 where fields[0].hasSuffix(",") && fields[3] == "GMT":
            // Sunday, 06-Nov-94 08:49:37 GMT
            let date = fields[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard date.count == 3 else { return nil }
            return make(day: date[0], month: date[1], year: date[2], time: fields[2], twoDigitYear: true)
        case 5 where !fields[0].hasSuffix(","):
            // Sun Nov  6 08:49:37 1994
            return make(day: fields[2], month: fields[1], year: fields[4], time: fields[3], twoDigitYear: false)
        default:
            return nil
        }
    }

    private static func make(day: String, month: String, year: String, time: String, twoDigitYear: Bool) -> Int64? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard day.count <= 2, year.count == (twoDigitYear ? 2 : 4), clock.count == 3,
              clock.allSatisfy({ $0.count == 2 }),
              let dayValue = Int32(day), (1...31).contains(dayValue),
              let monthIndex = months.firstIndex(of: month),
              var yearValue = Int32(year),
              let hour = Int32(clock[0]), (0...23).contains(hour),
              let minute = Int32(clock[1]), (0...59).contains(minute),
              let second = Int32(clock[2]), (0...60).contains(second) else { return nil }
        if twoDigitYear {
            // RFC 9110 section 5.6.7: a two-digit year more than 50 years ahead is in the past century.
            yearValue += yearValue < 70 ? 2000 : 1900
        }
        var parts = tm()
        parts.tm_year = yearValue - 1900
        parts.tm_mon = Int32(monthIndex)
        parts.tm_mday = dayValue
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Int64(timegm(&parts))
    }
}
