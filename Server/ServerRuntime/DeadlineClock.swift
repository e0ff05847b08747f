/*
Abstract:
Time as an input for a server's deadlines: the monotonic time they are set on, and the waits they bound.
*/

import DevicePlatform
import Foundation

/// The time a server's deadlines run on: a monotonic reading, and waits in `poll(2)` that end at a
/// deadline on the same scale.
///
/// A connection sets each deadline from ``now()`` (the idle timeout, the request head's deadline, a
/// send that makes no progress) and waits for its socket with ``poll(_:until:)``. A test passes a clock
/// it advances by hand, so it checks a ten-second deadline without waiting ten seconds, or depending
/// on how loaded the machine is. Throttles and fault delays are real time: they pace real transfers.
public protocol DeadlineClock: Sendable {
    /// Monotonic time in nanoseconds; only differences between two readings mean anything.
    func now() -> UInt64

    /// Waits until one of `descriptors` is ready or `deadline` (on this clock) passes.
    /// - Returns: What `poll(2)` returns: how many descriptors are ready (their `revents` set), `0`
    ///   once the deadline has passed, or `-1` with `errno` set (`EINTR` included: wait again).
    func poll(_ descriptors: inout [pollfd], until deadline: UInt64) -> Int32
}

extension DeadlineClock {
    /// Milliseconds left until `deadline`, for a call that takes a timeout of its own (a TLS read or
    /// handshake); `0` once it has passed.
    public func millisecondsUntil(_ deadline: UInt64) -> Int32 {
        MonotonicClock.millisecondsUntil(deadline, now: now())
    }
}

/// The machine's monotonic clock, ``MonotonicClock``: what every server runs on outside tests.
public struct SystemDeadlineClock: DeadlineClock {
    /// Creates the machine's clock.
    public init() {}

    public func now() -> UInt64 { MonotonicClock.now() }

    public func poll(_ descriptors: inout [pollfd], until deadline: UInt64) -> Int32 {
        while true {
            let timeout = MonotonicClock.millisecondsUntil(deadline)
            guard timeout > 0 else { return 0 }
            let ready = Foundation.poll(&descriptors, nfds_t(descriptors.count), timeout)
            // A timeout that ends a hair early is not the deadline: wait for the rest.
            if ready != 0 { return ready }
        }
    }
}
