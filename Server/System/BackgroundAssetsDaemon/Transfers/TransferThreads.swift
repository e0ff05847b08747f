/*
Abstract:
The threads transfers run on: started as needed, kept a while after a transfer ends for the next one.
*/

import Foundation

/// Runs each transfer on a thread of its own, reusing threads that finished one.
///
/// A transfer blocks (in `poll`, `read`, `fdatasync`), so it needs a thread; starting one costs
/// about as much as a whole small download over a kept-alive connection. Every job gets a thread at
/// once: a free one when there is one, else a new one; a thread left without work waits for the
/// next job for ``idleLifetime``, then ends.
final class TransferThreads: @unchecked Sendable {
    /// The threads of the service.
    static let shared = TransferThreads()
    /// How long a thread without work waits for another job before it ends.
    static let idleLifetime: TimeInterval = 15
    /// The most threads kept waiting; more than the transfers that usually run at once.
    static let maximumIdle = 16
    /// A transfer's stack: it keeps its buffers on the heap.
    static let stackSize = 1 << 20

    // `condition` guards the two vars below; hence the unchecked Sendable.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var idleThreads = 0

    /// Runs `job` on a thread now.
    func run(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        // Each waiting thread takes one job; a job beyond them needs a new thread.
        let needsThread = idleThreads < jobs.count
        if !needsThread { condition.signal() }
        condition.unlock()
        if needsThread {
            Thread.start(named: "transfer", stackSize: Self.stackSize) { [self] in work() }
        }
    }

    /// The number of threads waiting for work, for tests.
    var idleCount: Int {
        condition.withLock { idleThreads }
    }

    private func work() {
        condition.lock()
        while true {
            if !jobs.isEmpty {
                let job = jobs.removeFirst()
                condition.unlock()
                job()
                condition.lock()
                continue
            }
            guard idleThreads < Self.maximumIdle else { break }
            idleThreads += 1
            let woken = condition.wait(until: Date(timeIntervalSinceNow: Self.idleLifetime))
            idleThreads -= 1
            if !woken, jobs.isEmpty { break }
        }
        condition.unlock()
    }
}
