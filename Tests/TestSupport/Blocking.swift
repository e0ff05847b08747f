/*
Abstract:
Runs a blocking call from a test's task on a thread of its own, outside Swift's cooperative pool.
*/

import Foundation

/// Runs blocking work (a socket read, a semaphore wait) on a new thread and waits for it.
///
/// Swift's cooperative pool has a thread per core: a test that blocks one in `recv` while the
/// service it talks to runs in the same process on that pool can starve the service (and every
/// other suite running beside it) until the read times out. A thread of Dispatch's global queue is
/// no way out on Linux: there the cooperative pool's tasks run on those same threads, so a full run's
/// blocked reads held back every in-process service and timer by tens of seconds. A thread of its own
/// costs microseconds and blocks nobody.
/// - Parameter work: The blocking work.
/// - Returns: What `work` returns.
/// - Throws: What `work` throws.
public func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// Waits, on a thread of its own, for a semaphore another thread signals (a store's thread, a
/// server's), for as long as a poll waits at most.
/// - Parameter semaphore: The semaphore.
/// - Returns: Whether it was signalled in time.
public func signalled(_ semaphore: DispatchSemaphore) async -> Bool {
    (try? await blocking { semaphore.wait(timeout: .now() + .seconds(Int(defaultPollTimeout.components.seconds))) == .success }) ?? false
}
