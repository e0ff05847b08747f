/*
Abstract:
Runs blocking socket calls on their own thread, so tests never tie up Swift's cooperative threads.
*/

import Foundation

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
