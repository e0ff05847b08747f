/*
Abstract:
Runs blocking socket calls on their own thread, so tests never tie up Swift's cooperative threads.
*/

import Foundation
import Synchronization

/// Runs a blocking closure on a new thread and suspends until it finishes.
///
/// The cooperative pool has as many threads as cores; a test that blocked one of them in `accept`
/// or `recv` while another test waited for a free one could deadlock the whole run.
/// - Parameter body: The blocking work.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
func onThread<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
    }
}

/// A thread that is already running when the initialiser returns, and whose result a test awaits.
///
/// `async let x = onThread { … }` starts its thread only once the child task gets a turn on the
/// cooperative pool, which a full test run keeps busy for seconds: a deadline a test measures from
/// the `async let` can pass before the thread exists. A test that waits for the thread to reach a
/// call starts it with this instead, so the wait covers only the thread's own way there.
final class StartedThread<Value: Sendable>: Sendable {
    private enum State {
        case running
        case waiting(CheckedContinuation<Value, any Error>)
        case finished(Result<Value, any Error>)
    }

    private let state = Mutex(State.running)

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () throws -> Value) {
        Thread { [self] in finish(Result { try body() }) }.start()
    }

    /// What the thread's body returned, once it has.
    var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let finished: Result<Value, any Error>? = state.withLock { state in
                    if case let .finished(result) = state { return result }
                    state = .waiting(continuation)
                    return nil
                }
                if let finished { continuation.resume(with: finished) }
            }
        }
    }

    private func finish(_ result: Result<Value, any Error>) {
        let waiting: CheckedContinuation<Value, any Error>? = state.withLock { state in
            defer { state = .finished(result) }
            if case let .waiting(continuation) = state { return continuation }
            return nil
        }
        waiting?.resume(with: result)
    }
}
