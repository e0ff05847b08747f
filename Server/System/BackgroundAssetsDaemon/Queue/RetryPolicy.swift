/*
Abstract:
When a failed background download tries again: exponential backoff with jitter, Retry-After, and an age limit.
*/

import Foundation

/// Decides when a download that failed with a retryable error runs again, and when it gives up.
///
/// The delay doubles with every failure, from `initialDelay` up to `maximumDelay`, and is
/// jittered ("equal jitter": half fixed, half random) so that many downloads failing together do
/// not retry together. A server's `Retry-After` replaces the computed delay, clamped to the same
/// bounds. There is no attempt limit: like BITS' no-progress timeout, a download gives up when it
/// has made no progress for `maximumAge`, and every byte of progress resets that clock.
struct RetryPolicy: Sendable, Equatable {
    var initialDelay: Duration
    var maximumDelay: Duration
    var maximumAge: Duration

    init(configuration: ServiceConfiguration) {
        initialDelay = .seconds(fractional: configuration.retryInitialDelay)
        maximumDelay = .seconds(fractional: max(configuration.retryMaxDelay, configuration.retryInitialDelay))
        maximumAge = .seconds(fractional: configuration.maxDownloadAge)
    }

    /// The delay before the next attempt.
    /// - Parameters:
    ///   - failures: How many attempts have failed so far, at least 1.
    ///   - retryAfter: What the server asked for, if it did.
    ///   - random: The source of jitter; tests pass a seeded one.
    func delay(afterFailures failures: Int, retryAfter: Duration?, using random: inout some RandomNumberGenerator) -> Duration {
        if let retryAfter { return clamped(retryAfter: retryAfter) }
        let exponent = min(max(failures - 1, 0), 30)
        let backoff = min(initialDelay * (1 << exponent), maximumDelay)
        let half = backoff / 2
        let jitter = Double.random(in: 0...1, using: &random)
        return half + half * jitter
    }

    /// A server's `Retry-After`, within the policy's bounds.
    func clamped(retryAfter: Duration) -> Duration {
        min(max(retryAfter, initialDelay), maximumDelay)
    }

    /// Whether a download whose last progress (or creation) was at `lastProgress` should give up.
    func hasExpired(lastProgress: Date, now: Date) -> Bool {
        now.timeIntervalSince(lastProgress) > Double(maximumAge.components.seconds)
            + Double(maximumAge.components.attoseconds) / 1e18
    }
}
