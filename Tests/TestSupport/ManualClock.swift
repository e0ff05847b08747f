/*
Abstract:
A clock a test advances by hand, so deadlines and timers are checked without waiting for them.
*/

import Foundation
import Synchronization

/// A clock that stands still until the test advances it, as SwiftNIO's `EmbeddedEventLoop` does: a
/// sleep or a wait ends when ``advance(by:)`` moves the time past its deadline, never before.
///
/// It reads as a wall clock (``now``, for the service) and as a monotonic one (``uptimeNanoseconds``,
/// for the asset server), both moved by ``advance(by:)``. It has the shape of the service's
/// `ServiceClock` (`now`, `sleep(for:)`) and of ServerRuntime's `DeadlineClock` (`now()`,
/// `poll(_:until:)`); a test target declares the conformance it needs, as TestSupport links neither.
public final class ManualClock: Sendable {
    private struct Sleeper {
        var deadline: UInt64
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var elapsed: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 1
        /// The deadlines of the threads blocked in ``poll(_:untilUptime:)``, by id.
        var pollers: [UInt64: UInt64] = [:]
        var begun = 0

        mutating func take() -> UInt64 {
            defer { nextID += 1 }
            return nextID
        }
    }

    /// The wall-clock time the clock started at.
    public let start: Date
    private let state = Mutex(State())

    /// How long one real `poll(2)` of a waiting thread lasts before it reads the clock again.
    private static let pollSliceMilliseconds: Int32 = 5

    /// Creates a clock showing `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.start = start
    }

    /// The wall-clock time the clock shows.
    public var now: Date { start.addingTimeInterval(Double(uptimeNanoseconds) / 1e9) }

    /// The monotonic time the clock shows: nanoseconds it has been advanced by since it was made.
    public var uptimeNanoseconds: UInt64 { state.withLock { $0.elapsed } }

    /// How many sleeps and waits are waiting for the clock to move: a test waits for this to know
    /// its subject has set its timers, or is waiting for a deadline, before it advances the clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count + $0.pollers.count } }

    /// How far ahead the deadline of each sleep and wait in progress is, shortest first: a test
    /// reads which deadline its subject waits for (`[.seconds(30)]`: a 30-second stall timeout).
    public var pendingDeadlines: [Duration] {
        state.withLock { state in
            (state.sleepers.values.map(\.deadline) + state.pollers.values).sorted().map { deadline in
                .nanoseconds(Int64(clamping: deadline - min(deadline, state.elapsed)))
            }
        }
    }

    /// How many sleeps and waits have begun since the clock was made: when it grows, the subject
    /// has come back to wait again (it read what the test sent, and waits for more).
    public var waitsBegun: Int { state.withLock { $0.begun } }

    /// Suspends until the clock has been advanced by `duration`.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        let nanoseconds = Self.nanoseconds(duration)
        try await sleep { elapsed in
            let deadline = elapsed.addingReportingOverflow(nanoseconds)
            return deadline.overflow ? .max : deadline.partialValue
        }
    }

    /// Suspends until the clock shows `date`, returning at once for a date already past.
    ///
    /// The deadline is the date itself, not a delay counted from a reading of the clock a moment
    /// earlier: a test that advances the clock in between cannot push the wake-up past it.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until date: Date) async throws {
        // Dates so far from 1970 hold a fraction of a microsecond of error: the deadline is taken in
        // whole microseconds, rounded down, so an advance to exactly the date ends the sleep.
        let microseconds = date.timeIntervalSince(start) * 1e6
        let deadline: UInt64 = microseconds <= 0 ? 0 : microseconds >= Double(UInt64.max / 1000) ? .max : UInt64(microseconds) * 1000
        try await sleep { _ in deadline }
    }

    /// Suspends until the clock reaches the deadline `deadlineAt` gives for the time it shows when
    /// the sleep begins.
    private func sleep(deadlineAt: @escaping @Sendable (UInt64) -> UInt64) async throws {
        let id = state.withLock { state in
            state.begun += 1
            return state.take()
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                state.withLock { state in
                    let deadline = deadlineAt(state.elapsed)
                    if state.cancelled.remove(id) != nil {
                        continuation.resume(throwing: CancellationError())
                    } else if deadline <= state.elapsed {
                        continuation.resume()
                    } else {
                        state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return Sleeper?.none
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Blocks the calling thread until one of `descriptors` is ready or the clock reaches
    /// `deadline` (in ``uptimeNanoseconds``), counted in ``sleeperCount`` meanwhile.
    ///
    /// The thread waits in short real `poll(2)` calls, reading the clock between them, so it sees
    /// the clock advanced within a few milliseconds.
    /// - Returns: What `poll(2)` returns: how many descriptors are ready, `0` once the deadline has
    ///   passed, or `-1` with `errno` set.
    public func poll(_ descriptors: inout [pollfd], untilUptime deadline: UInt64) -> Int32 {
        let id = state.withLock { state in
            state.begun += 1
            let id = state.take()
            state.pollers[id] = deadline
            return id
        }
        defer { state.withLock { _ = $0.pollers.removeValue(forKey: id) } }
        while uptimeNanoseconds < deadline {
            let ready = Foundation.poll(&descriptors, nfds_t(descriptors.count), Self.pollSliceMilliseconds)
            if ready != 0 { return ready }
        }
        return 0
    }

    /// Moves the clock forward and wakes, in deadline order, every sleep whose deadline it passes.
    public func advance(by duration: Duration) {
        let nanoseconds = Self.nanoseconds(duration)
        let due = state.withLock { state -> [Sleeper] in
            let moved = state.elapsed.addingReportingOverflow(nanoseconds)
            state.elapsed = moved.overflow ? .max : moved.partialValue
            let now = state.elapsed
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// A non-negative duration in whole nanoseconds, saturating.
    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let whole = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let total = whole.partialValue.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return whole.overflow || total.overflow ? .max : total.partialValue
    }
}
