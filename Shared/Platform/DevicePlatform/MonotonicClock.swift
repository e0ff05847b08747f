/*
Abstract:
Monotonic time in nanoseconds and sleeping that a shutdown can cut short.
*/

import Foundation

/// Reads `CLOCK_MONOTONIC`, which never jumps with wall-clock changes, so deadlines stay honest.
public enum MonotonicClock {
    /// The current monotonic time in nanoseconds.
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The monotonic time `milliseconds` from now, in nanoseconds; a negative count is now.
    public static func deadline(in milliseconds: Int32) -> UInt64 {
        now() + UInt64(max(0, milliseconds)) * 1_000_000
    }

    /// Milliseconds left until `deadline`, rounded up and clamped for `poll(2)`; `0` once it has passed.
    /// Rounded up, a wait never ends before its deadline.
    public static func millisecondsUntil(_ deadline: UInt64, now: UInt64 = now()) -> Int32 {
        guard deadline > now else { return 0 }
        let milliseconds = (deadline - now + 999_999) / 1_000_000
        return Int32(min(milliseconds, UInt64(Int32.max)))
    }

    /// Sleeps for `nanoseconds` in short slices, returning early (with `false`) once `shouldStop` is true.
    @discardableResult
    public static func sleep(nanoseconds: UInt64, shouldStop: () -> Bool) -> Bool {
        let deadline = now() &+ nanoseconds
        while true {
            if shouldStop() { return false }
            let current = now()
            guard current < deadline else { return true }
            let slice = min(deadline - current, 50_000_000)
            var request = timespec(tv_sec: Int(slice / 1_000_000_000), tv_nsec: Int(slice % 1_000_000_000))
            _ = nanosleep(&request, nil)
        }
    }
}
