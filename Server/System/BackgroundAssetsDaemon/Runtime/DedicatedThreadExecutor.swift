/*
Abstract:
Runs an actor's jobs on a thread of its own, so its blocking calls never hold a thread of the shared pool.
*/

import Foundation

/// A serial executor with one thread, for the actors that block: the stores (SQLite reads and
/// writes, `fdatasync`) and the queue that calls them.
///
/// Swift's cooperative pool has one thread per core (two on a small machine); an actor that blocks
/// in SQLite on one of them holds up every other actor and task, the service's client handling
/// among them. On a dedicated thread, blocking costs only that actor's own callers.
final class DedicatedThreadExecutor: SerialExecutor, @unchecked Sendable {
    // `condition` guards `jobs` and `isStopped`; hence the unchecked Sendable.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isStopped = false

    /// Starts the executor's thread.
    /// - Parameter name: The thread's name, as `ps -L`, `top -H` and backtraces show it; the kernel
    ///   keeps its first 15 bytes.
    init(name: String) {
        Thread.start(named: name) { [self] in run() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Ends the thread once the jobs already queued have run; the owner calls it when it goes away.
    func stop() {
        condition.lock()
        isStopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty, !isStopped { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
        }
    }
}
