/*
Abstract:
Paces a transfer's reads to its bandwidth limit, picking up a new limit at once.
*/

import DevicePlatform
import ServerRuntime

/// Paces reads to a ``TransferControl``'s current bandwidth limit with a token bucket.
struct Pacer {
    let control: TransferControl
    private var bucket: TokenBucket?
    private var rate: Int64?
    /// The nanoseconds spent waiting for the limit so far: time the server is not to blame for.
    private(set) var pacedNanoseconds: UInt64 = 0

    init(control: TransferControl) {
        self.control = control
    }

    /// The most bytes to read next: small pieces when limited, so the pace stays smooth.
    mutating func pieceSize(default size: Int) -> Int {
        let current = control.bytesPerSecond
        if current != rate {
            rate = current
            bucket = current.map { TokenBucket(bytesPerSecond: $0, capacity: max(1, $0 / 10), now: MonotonicClock.now()) }
        }
        return rate.map { min(size, TokenBucket.chunkSize(forRate: $0)) } ?? size
    }

    /// Waits until `count` bytes fit the limit; returns at once when there is none.
    mutating func wait(for count: Int) throws(TransferError) {
        guard var bucket else { return }
        let start = MonotonicClock.now()
        let delay = bucket.reserve(count, now: start)
        self.bucket = bucket
        guard delay > 0 else { return }
        let control = control
        let slept = MonotonicClock.sleep(nanoseconds: delay, shouldStop: { control.isCancelled })
        pacedNanoseconds &+= MonotonicClock.now() &- start
        if !slept {
            throw TransferError(.transport, .cancelled, "the transfer was stopped")
        }
    }
}
