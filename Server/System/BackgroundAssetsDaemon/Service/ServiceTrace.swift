/*
Abstract:
The trace: every cross-process event appended as one JSON line to system/trace.jsonl.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization
import SystemLogging

/// Appends events to `system/trace.jsonl`, one JSON object per line.
///
/// `backgroundassets-debug trace` reads it back and renders it as a sequence diagram, so each
/// line (a ``TraceEntry``) names who talked to whom, what happened, and for which app and download.
public final class ServiceTrace: Sendable {
    /// One line of the trace.
    public typealias Entry = TraceEntry

    private let descriptor: Mutex<Int32>
    /// The service's device clock, which stamps each entry's device time while it differs from real time.
    private let deviceClock = Mutex<DeviceClock?>(nil)

    /// Opens the trace for appending, creating it (0600) if needed.
    ///
    /// A trace that cannot be opened, or a symbolic link where it belongs, is logged once and then
    /// not written: the service runs on, and never appends to (or, as root, creates) the file a
    /// link names.
    /// - Parameter url: Usually `system/trace.jsonl`.
    public init(url: URL) {
        do {
            descriptor = Mutex(try LinkRefusingFile.open(url, flags: O_WRONLY | O_APPEND | O_CREAT))
        } catch {
            Logger(subsystem: "com.example.backgroundassetsd", category: "daemon")
                .error("The trace is not written: \(error)")
            descriptor = Mutex(-1)
        }
    }

    deinit { descriptor.withLock { _ = close($0) } }

    /// Sets the device clock whose time entries record beside the real time.
    /// - Parameter deviceClock: The service's clock, each time it changes (at start, and when it resumes ahead).
    public func use(_ deviceClock: DeviceClock) {
        self.deviceClock.withLock { $0 = deviceClock }
    }

    /// Appends one entry; a trace that cannot be written never stops the service.
    public func append(_ entry: Entry) {
        var entry = entry
        if entry.deviceTime == nil, let deviceClock = deviceClock.withLock({ $0 }) {
            // Recorded only while the device runs apart from real time, so a timeline can show both.
            let deviceTime = deviceClock.deviceTime(at: entry.time)
            if deviceClock.timeScale != 1 || abs(deviceTime.timeIntervalSince(entry.time)) >= 1 { entry.deviceTime = deviceTime }
        }
        // Tokens in URL queries never reach the trace.
        let line = entry.redactedLine
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            // One write(2) with O_APPEND keeps each line whole.
            _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
    }
}
