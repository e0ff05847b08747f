/*
Abstract:
The trace: every cross-process event appended as one JSON line to system/trace.jsonl.
*/

import Foundation
import Synchronization

/// Appends events to `system/trace.jsonl`, one JSON object per line.
///
/// `backgroundassets-debug trace` reads it back and renders it as a sequence diagram, so each
/// line names who talked to whom: `from`, `to`, what (`event`), and for which app and download.
public final class ServiceTrace: Sendable {
    /// One line of the trace.
    public struct Entry: Codable, Sendable, Equatable {
        /// When it happened.
        public var time: Date
        /// The process that acted, such as `backgroundassetsd`, `app`, `extension`, `tool`.
        public var from: String
        /// The process it acted on.
        public var to: String
        /// What happened, such as `scheduleDownload` or `downloadDidBegin`.
        public var event: String
        /// The app concerned, when there is one.
        public var app: String?
        /// The download's identifier, when there is one.
        public var download: String?
        /// A short detail, such as an error message.
        public var detail: String?

        /// Creates an entry.
        public init(
            time: Date = .now, from: String, to: String, event: String, app: String? = nil, download: String? = nil,
            detail: String? = nil
        ) {
            self.time = time
            self.from = from
            self.to = to
            self.event = event
            self.app = app
            self.download = download
            self.detail = detail
        }
    }

    private let descriptor: Mutex<Int32>

    /// Opens the trace for appending, creating it (0600) if needed.
    /// - Parameter url: Usually `system/trace.jsonl`.
    public init(url: URL) {
        descriptor = Mutex(open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600))
    }

    deinit { descriptor.withLock { _ = close($0) } }

    /// Appends one entry; a trace that cannot be written never stops the service.
    public func append(_ entry: Entry) {
        let encoder = JSONEncoder()
        // Milliseconds, so events a few milliseconds apart keep their order when sorted by time.
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true)) + "Z")
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(entry) else { return }
        line.append(UInt8(ascii: "\n"))
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            // One write(2) with O_APPEND keeps each line whole.
            _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
    }
}
