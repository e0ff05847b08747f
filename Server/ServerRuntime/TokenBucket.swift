/*
Abstract:
A token bucket that paces a stream of bytes (a response body, a download) to a rate, driven by a clock passed in.
*/

/// Paces bytes to a rate: each send reserves tokens and is told how long to wait first.
///
/// Time is passed in as monotonic nanoseconds, so tests drive the bucket without sleeping.
public struct TokenBucket: Sendable {
    /// The sustained rate.
    public let bytesPerSecond: Int64
    /// The largest burst.
    public let capacity: Int64
    private var tokens: Double
    private var lastRefill: UInt64

    /// Creates a bucket that starts full.
    /// - Parameters:
    ///   - bytesPerSecond: The sustained rate, at least 1.
    ///   - capacity: The largest burst, at least 1 byte.
    ///   - now: The current monotonic time in nanoseconds.
    public init(bytesPerSecond: Int64, capacity: Int64, now: UInt64) {
        self.bytesPerSecond = max(1, bytesPerSecond)
        self.capacity = max(1, capacity)
        tokens = Double(self.capacity)
        lastRefill = now
    }

    /// The chunk size that keeps a throttled stream smooth: a tenth of a second's worth, within sane bounds.
    public static func chunkSize(forRate bytesPerSecond: Int64) -> Int {
        Int(min(256 * 1024, max(512, bytesPerSecond / 10)))
    }

    /// Takes `count` bytes' worth of tokens and returns how many nanoseconds to wait before sending them.
    public mutating func reserve(_ count: Int, now: UInt64) -> UInt64 {
        if now > lastRefill {
            let elapsed = Double(now - lastRefill) / 1e9
            tokens = min(Double(capacity), tokens + elapsed * Double(bytesPerSecond))
            lastRefill = now
        }
        tokens -= Double(count)
        guard tokens < 0 else { return 0 }
        return UInt64((-tokens / Double(bytesPerSecond)) * 1e9)
    }
}
