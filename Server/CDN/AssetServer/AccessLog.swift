/*
Abstract:
The access log: one JSON object per response, appended whole even when many connections finish at once.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation
import Synchronization

/// What the access log records about one response.
struct AccessLogEntry: Sendable, Equatable {
    var method: String
    var path: String
    /// The `Range` header as received, or `nil` when the request had none.
    var range: String?
    var status: Int
    /// Body bytes actually written to the socket, so a cut connection logs the partial count.
    var bytes: Int64

    /// The entry as one line of JSON with a fixed key order, ending in a newline.
    var jsonLine: String {
        // Request text is attacker-controlled: every control character is escaped.
        let rangeValue = range.map(JSONValue.quoted) ?? "null"
        return "{\"method\":\(JSONValue.quoted(method)),\"path\":\(JSONValue.quoted(path)),\"range\":\(rangeValue),"
            + "\"status\":\(status),\"bytes\":\(bytes)}\n"
    }
}

/// Appends access log lines to a file shared by every connection.
final class AccessLog: Sendable {
    private let descriptor: Mutex<Int32>

    /// Opens (creating if needed) the log at `url` for appending.
    /// - Throws: ``AssetServerError/invalidOption(flag:value:expected:)`` when the file cannot be opened.
    init(url: URL) throws {
        let opened = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard opened >= 0 else {
            throw AssetServerError.invalidOption(
                flag: "--access-log", value: url.path,
                expected: "a file path that can be created or appended to (\(errnoText()))")
        }
        descriptor = Mutex(opened)
    }

    /// Appends one entry; the line is written with a single `write(2)` under the lock, so lines never interleave.
    func append(_ entry: AccessLogEntry) {
        var line = Array(entry.jsonLine.utf8)
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            var offset = 0
            while offset < line.count {
                let written = line.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Closes the file; later appends are ignored.
    func close() {
        descriptor.withLock { descriptor in
            if descriptor >= 0 { Foundation.close(descriptor) }
            descriptor = -1
        }
    }
}
