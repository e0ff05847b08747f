/*
Abstract:
Runs a blocking call from a test's task on a thread outside Swift's cooperative pool.
*/

import Dispatch

/// Runs blocking work (a socket read, a semaphore wait) on a Dispatch thread and waits for it.
///
/// Swift's cooperative pool has a thread per core: a test that blocks one in `recv` while the
/// service it talks to runs in the same process on that pool can starve the service (and every
/// other suite running beside it) until the read times out.
/// - Parameter work: The blocking work.
/// - Returns: What `work` returns.
/// - Throws: What `work` throws.
public func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}
