/*
Abstract:
Tests that transfers each get a thread at once, and that a thread that finished one runs the next.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Threads for transfers", .timeLimit(.minutes(3)))
struct TransferThreadsTests {
    @Test("Jobs that wait for each other all run at once: none waits for a free thread")
    func everyJobRunsAtOnce() async throws {
        let threads = TransferThreads()
        let count = 24
        let arrived = Mutex(0)
        let everyoneArrived = DispatchSemaphore(value: 0)
        let finished = Mutex(0)
        for _ in 0..<count {
            threads.run {
                let now = arrived.withLock { value -> Int in value += 1; return value }
                if now == count { for _ in 0..<count { everyoneArrived.signal() } }
                everyoneArrived.wait()
                finished.withLock { $0 += 1 }
            }
        }
        try await poll(until: { finished.withLock { $0 } == count }, "all \(count) jobs to finish")
    }

    @Test("A thread that finished a job waits for the next one, and runs it")
    func threadsAreReused() async throws {
        let threads = TransferThreads()
        let ran = Mutex<[ObjectIdentifier]>([])
        threads.run { ran.withLock { $0.append(ObjectIdentifier(Thread.current)) } }
        try await poll(until: { ran.withLock { $0.count } == 1 && threads.idleCount == 1 },
                       "the first job to end and its thread to wait")
        threads.run { ran.withLock { $0.append(ObjectIdentifier(Thread.current)) } }
        try await poll(until: { ran.withLock { $0.count } == 2 }, "the second job")
        let identities = ran.withLock { $0 }
        #expect(identities[0] == identities[1], "the waiting thread ran the second job")
    }
}
