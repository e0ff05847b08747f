/*
Abstract:
Ends a transfer whose server delivers less than a minimum rate over a window, as curl's --speed-limit and --speed-time do.
*/

import Foundation

/// Watches a body's rate, window after window.
///
/// The stall timeout ends a server that sends nothing; it cannot end one that sends a byte a
/// second, which would hold a download (and a person waiting for it in the foreground) for ever.
/// When a whole window passes with less than ``bytesPerSecond`` on average, the attempt fails with
/// ``TransferError/Kind/tooSlow``, which the queue retries like a stall: a new connection, perhaps
/// to a faster server, and the bytes received are kept.
///
/// Only the time spent waiting for the server counts. The time the transfer's own pacing slept (a
/// background download throttled to its bandwidth share) is left out, so a download the service
/// holds back is never blamed on the server.
struct LowSpeedWatch {
    /// The least average rate a window must reach; 0 turns the watch off.
    let bytesPerSecond: Int64
    /// The window's length in nanoseconds.
    let window: UInt64
    private var start: (time: UInt64, bytes: Int64, paced: UInt64)

    /// Starts watching.
    /// - Parameters:
    ///   - bytesPerSecond: The `lowSpeedLimit`.
    ///   - window: The `lowSpeedTime`.
    ///   - bytes: The bytes the file holds now.
    ///   - now: The monotonic time now.
    init(bytesPerSecond: Int64, window: Duration, bytes: Int64, now: UInt64) {
        self.bytesPerSecond = bytesPerSecond
        let components = window.components
        self.window = UInt64(clamping: components.seconds).multipliedReportingOverflow(by: 1_000_000_000).partialValue
            &+ UInt64(clamping: components.attoseconds / 1_000_000_000)
        start = (now, bytes, 0)
    }

    /// Checks the window that ends now; starts the next one when it passed.
    /// - Parameters:
    ///   - bytes: The bytes the file holds now.
    ///   - now: The monotonic time now.
    ///   - paced: The nanoseconds the transfer's pacing has slept so far.
    /// - Throws: ``TransferError`` of kind `.tooSlow` when a whole window was below the rate.
    mutating func check(bytes: Int64, now: UInt64, paced: UInt64) throws(TransferError) {
        guard bytesPerSecond > 0, now > start.time, now - start.time >= window else { return }
        let waited = (now - start.time) - min(now - start.time, paced &- start.paced)
        let received = max(0, bytes - start.bytes)
        defer { start = (now, bytes, paced) }
        // The rate over the time spent waiting for the server, compared without dividing.
        guard waited > 0, Double(received) * 1e9 < Double(bytesPerSecond) * Double(waited) else { return }
        throw TransferError(.transport, .tooSlow,
            "the server sent \(received) bytes in \(String(format: "%.1f", Double(waited) / 1e9)) s, below the "
            + "\(bytesPerSecond) bytes per second a transfer must reach over \(String(format: "%g", Double(window) / 1e9)) s "
            + "(lowSpeedLimit, lowSpeedTime)")
    }
}
