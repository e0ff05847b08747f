/*
Abstract:
The end of one pack download that several callers await: each gets the same success or the same error.
*/

import Synchronization

/// A result that is set once and awaited by any number of callers, before or after it is set.
final class AssetPackDownloadCompletion: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Void, any Error>])
        case done(Result<Void, any Error>)
    }

    private let state = Mutex(State.waiting([]))

    /// Waits for the result; returns at once when it is already set.
    func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let result: Result<Void, any Error>? = state.withLock { state in
                switch state {
                case var .waiting(continuations):
                    continuations.append(continuation)
                    state = .waiting(continuations)
                    return nil
                case let .done(result):
                    return result
                }
            }
            if let result { continuation.resume(with: result) }
        }
    }

    /// How many callers wait for the result.
    var waiterCount: Int {
        state.withLock { state in
            if case let .waiting(continuations) = state { return continuations.count }
            return 0
        }
    }

    /// Sets the result and resumes every waiter; later calls are ignored.
    func resolve(_ result: Result<Void, any Error>) {
        let waiting: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            guard case let .waiting(continuations) = state else { return [] }
            state = .done(result)
            return continuations
        }
        for continuation in waiting { continuation.resume(with: result) }
    }
}
