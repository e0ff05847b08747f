/*
Abstract:
Time as an input: what the service, its queue and its hosts read the time from and sleep on.
*/

import Foundation

/// The time the service runs on: the wall clock it stamps and compares, and the sleeps of its timers.
///
/// Every deadline, expiry, retry, idle exit and periodic check reads ``now`` and waits with
/// ``sleep(for:)``, so a test can replace the system's clock with one it advances by hand (as
/// SwiftNIO's tests advance an `EmbeddedEventLoop`) and check a 60-second rule without waiting a
/// minute, or depending on how loaded the machine is. Transfers themselves run in real time: they
/// wait on sockets, not on this clock.
public protocol ServiceClock: Sendable {
    /// The wall-clock time now.
    var now: Date { get }

    /// Suspends the calling task for `duration` of this clock's time.
    /// - Throws: `CancellationError` when the task is cancelled first.
    func sleep(for duration: Duration) async throws

    /// Suspends until `date` on this clock, returning at once for a date already past.
    ///
    /// A clock that can be moved by hand implements it with the date as the deadline: counted as a
    /// delay from a reading of ``now``, a move in between would push the wake-up past the date.
    /// - Throws: `CancellationError` when the task is cancelled first.
    func sleep(until date: Date) async throws
}

extension ServiceClock {
    /// Suspends until `date` on this clock, returning at once for a date already past: the delay
    /// from ``now``, which for the machine's clock is the same thing.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until date: Date) async throws {
        try await sleep(for: .seconds(fractional: max(0, date.timeIntervalSince(now))))
    }
}

/// The machine's clock: `Date.now`, and sleeps on the continuous clock.
public struct SystemServiceClock: ServiceClock {
    /// Creates the machine's clock.
    public init() {}

    public var now: Date { Date.now }

    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}
