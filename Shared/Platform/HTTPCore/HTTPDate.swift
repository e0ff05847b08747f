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
        // Written byte by byte: servers send two of these with every response.
        return String(unsafeUninitializedCapacity: 29) { buffer in
            var index = 0
            func put(_ text: String) {
                for byte in text.utf8 {
                    buffer[index] = byte
                    index += 1
                }
            }
            func put(_ value: Int32, digits: Int) {
                var divisor: Int32 = digits == 4 ? 1000 : 10
                while divisor > 0 {
                    buffer[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / divisor % 10)
                    index += 1
                    divisor /= 10
                }
            }
            put(weekdays[Int(parts.tm_wday)])
            put(", ")
            put(parts.tm_mday, digits: 2)
            put(" ")
            put(months[Int(parts.tm_mon)])
            put(" ")
            put(min(max(parts.tm_year + 1900, 0), 9999), digits: 4)
            put(" ")
            put(parts.tm_hour, digits: 2)
            put(":")
            put(parts.tm_min, digits: 2)
            put(":")
            put(parts.tm_sec, digits: 2)
            put(" GMT")
            return index
        }
    }

    /// The current time as an IMF-fixdate, for the `Date` header.
    public static func now() -> String {
        format(Int64(time(nil)))
    }

    /// The last date formatted, kept for the next one: a connection sends the same `Date` and
    /// `Last-Modified` for every response within a second.
    public struct Cache: Sendable {
        private var seconds = Int64.min
        private var text = ""

        public init() {}

        /// `secondsSince1970` as an IMF-fixdate.
        public mutating func format(_ secondsSince1970: Int64) -> String {
            if secondsSince1970 != seconds {
                seconds = secondsSince1970
                text = HTTPDate.format(secondsSince1970)
            }
            return text
        }

        /// The current time as an IMF-fixdate.
        public mutating func now() -> String {
            format(Int64(time(nil)))
        }
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
