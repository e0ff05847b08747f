/*
Abstract:
A clock a test advances by hand, so deadlines and timers are checked without waiting for them.
*/

import Foundation
import Synchronization

/// A wall clock that stands still until the test advances it, as SwiftNIO's `EmbeddedEventLoop`
/// does: a sleep ends when ``advance(by:)`` moves the time past its deadline, never before.
///
/// It has the shape of the service's `ServiceClock` (`now`, `sleep(for:)`); a test target that
/// needs it as one declares the conformance, as TestSupport does not link the service.
public final class ManualClock: Sendable {
    private struct Sleeper {
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [UInt64: Sleeper] = [:]
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 1
    }

    private let state: Mutex<State>

    /// Creates a clock showing `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Mutex(State(now: start))
    }

    /// The time the clock shows.
    public var now: Date { state.withLock { $0.now } }

    /// How many sleeps are waiting for the clock to move: a test waits for this to know its
    /// subject has set its timers before it advances the clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock has been advanced by `duration`.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                state.withLock { state in
                    if state.cancelled.remove(id) != nil {
                        continuation.resume(throwing: CancellationError())
                    } else if seconds <= 0 {
                        continuation.resume()
                    } else {
                        state.sleepers[id] = Sleeper(deadline: state.now.addingTimeInterval(seconds), continuation: continuation)
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

    /// Moves the clock forward and wakes, in deadline order, every sleep whose deadline it passes.
    public func advance(by duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.addingTimeInterval(seconds)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
