/*
Abstract:
The trace: every cross-process event appended as one JSON line to system/trace.jsonl.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization

/// Appends events to `system/trace.jsonl`, one JSON object per line.
///
/// `backgroundassets-debug trace` reads it back and renders it as a sequence diagram, so each
/// line (a ``TraceEntry``) names who talked to whom, what happened, and for which app and download.
public final class ServiceTrace: Sendable {
    /// One line of the trace.
    public typealias Entry = TraceEntry

    private let descriptor: Mutex<Int32>

    /// Opens the trace for appending, creating it (0600) if needed.
    /// - Parameter url: Usually `system/trace.jsonl`.
    public init(url: URL) {
        descriptor = Mutex(open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600))
    }

    deinit { descriptor.withLock { _ = close($0) } }

    /// Appends one entry; a trace that cannot be written never stops the service.
    public func append(_ entry: Entry) {
        // Tokens in URL queries never reach the trace.
        let line = Array(SecretRedaction.redacting(text: String(decoding: entry.line, as: UTF8.self)).utf8)
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            // One write(2) with O_APPEND keeps each line whole.
            _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
    }
}
