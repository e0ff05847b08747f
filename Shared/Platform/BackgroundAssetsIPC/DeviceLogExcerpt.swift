/*
Abstract:
The error lines one category wrote to the device log since a moment, to explain a failure where the user looks.
*/

import Foundation

/// Reads back what a process logged, so the service can say why an extension returned nothing and a
/// client why the service would not start.
public enum DeviceLogExcerpt {
    /// The last `limit` error and fault lines of `category` written at or after `since`, without their prefix.
    ///
    /// Lines start with an ISO 8601 UTC timestamp, so they compare as text; only the log's last 256 KiB
    /// are read, which holds any one content request.
    /// - Parameters:
    ///   - file: The device log, ``DevicePaths/logFile``.
    ///   - category: The category, such as `ext` or `daemon`.
    ///   - since: The earliest time of a line to return.
    ///   - limit: The most lines returned, the latest ones.
    /// - Returns: The messages, oldest first.
    public static func errors(in file: URL, category: String, since: Date, limit: Int = 5) -> [String] {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return [] }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        try? handle.seek(toOffset: size > 262_144 ? size - 262_144 : 0)
        let text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
        return errors(inText: text, category: category, since: since, limit: limit)
    }

    /// The last `limit` error and fault lines of `category` at or after `since` in log text, such as
    /// what a process wrote to standard error when it could not write the device log.
    /// - Parameters:
    ///   - text: Log lines in the device log's format.
    ///   - category: The category, such as `ext` or `daemon`.
    ///   - since: The earliest time of a line to return.
    ///   - limit: The most lines returned, the latest ones.
    /// - Returns: The messages, oldest first.
    public static func errors(inText text: String, category: String, since: Date, limit: Int = 5) -> [String] {
        let start = since.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
        let marker = " [\(category)] "
        let lines = text.split(separator: "\n").compactMap { line -> String? in
            guard line.count > start.count, line.prefix(start.count) >= start, let range = line.range(of: marker) else {
                return nil
            }
            let message = line[range.upperBound...]
            guard message.hasPrefix("error: ") || message.hasPrefix("fault: ") else { return nil }
            return String(message.dropFirst(7))
        }
        return Array(lines.suffix(limit))
    }
}
