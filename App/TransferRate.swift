/*
Abstract:
A download's recent rate, measured over a short sliding window.
*/

/// Estimates a transfer's rate from its recent progress.
///
/// Only the last few seconds count, so the rate follows a promotion to the foreground (or a
/// stall) quickly rather than averaging over the whole download.
struct TransferRate: Sendable {
    private struct Sample: Sendable {
        var time: ContinuousClock.Instant
        var totalBytes: Int64
    }

    /// How far back progress counts.
    let window: Duration
    private var samples: [Sample] = []

    /// Creates an estimator.
    /// - Parameter window: How far back progress counts.
    init(window: Duration = .seconds(3)) {
        self.window = window
    }

    /// Records the bytes written so far.
    /// - Parameters:
    ///   - totalBytes: The bytes written in all.
    ///   - time: When they were reported.
    mutating func record(totalBytes: Int64, at time: ContinuousClock.Instant) {
        samples.append(Sample(time: time, totalBytes: totalBytes))
        samples.removeAll { time - $0.time > window }
    }

    /// Forgets the progress so far, for a download that paused and continues later.
    mutating func reset() {
        samples.removeAll()
    }

    /// The rate in bytes per second, or `nil` when there is too little recent progress to tell.
    /// - Parameter now: The current time; progress older than the window is ignored.
    func bytesPerSecond(at now: ContinuousClock.Instant) -> Double? {
        let recent = samples.filter { now - $0.time <= window }
        guard let first = recent.first, let last = recent.last, last.time > first.time else { return nil }
        let elapsed = (last.time - first.time) / .milliseconds(1) / 1000
        return Double(last.totalBytes - first.totalBytes) / elapsed
    }
}
