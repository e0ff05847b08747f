/*
Abstract:
Tests that every transfer end reported has a job on its way to record it, however the reports and the jobs interleave.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Synchronization
import Testing

@Suite("Transfer ends waiting for the queue")
struct TransferEndsTests {
    static func end(_ id: Int64) -> TransferReport {
        .ended(TransferEnd(
            id: id, control: TransferControl(),
            result: .success(TransferResult(length: id, validator: nil, finalURL: URL(fileURLWithPath: "/\(id)"))),
            restartedBecause: nil))
    }

    @Test("The end that finds the list empty starts a job; the job takes every end, oldest first")
    func firstEndStartsTheJob() {
        let ends = TransferEnds()
        #expect(ends.add(Self.end(1)), "nothing waited: start a job")
        #expect(!ends.add(Self.end(2)), "a job is on its way already")
        #expect(ends.count == 2)
        #expect(ends.takeAll().map(\.id) == [1, 2])
        #expect(ends.count == 0)
        #expect(ends.add(Self.end(3)), "the job took the list: the next end starts another")
        #expect(ends.takeAll().map(\.id) == [3])
        #expect(ends.takeAll().isEmpty)
    }

    @Test("A body's end and a transfer's end share the list and its job, in the order they were reported")
    func bodyEndsShareTheJob() {
        let ends = TransferEnds()
        let control = TransferControl()
        #expect(ends.add(.bodyEnded(id: 1, control: control)), "nothing waited: start a job")
        #expect(!ends.add(Self.end(1)), "the body's end started the job the transfer's end goes with")
        #expect(!ends.add(.bodyEnded(id: 2, control: control)))
        #expect(ends.count == 3)
        #expect(ends.endCount == 1, "one transfer's own end waits")
        let taken = ends.takeAll()
        #expect(taken.map(\.id) == [1, 1, 2])
        guard case .bodyEnded = taken[0], case .ended = taken[1], case .bodyEnded = taken[2] else {
            Issue.record("reports out of order: \(taken)"); return
        }
        #expect(ends.endCount == 0)
    }

    @Test("Ends reported from many threads while jobs take them are each taken once, and none is left without a job")
    func concurrentReportsAreEachTakenOnce() async {
        let ends = TransferEnds()
        let reporters = 8
        let perReporter = 500
        let jobs = Jobs(ends: ends)
        await withTaskGroup(of: Void.self) { group in
            for reporter in 0..<reporters {
                group.addTask {
                    for index in 0..<perReporter {
                        if ends.add(Self.end(Int64(reporter * perReporter + index))) { jobs.start() }
                        if index % 50 == 0 { jobs.runStarted() }
                    }
                }
            }
        }
        jobs.runStarted()
        let all = jobs.taken
        #expect(all.count == reporters * perReporter, "every end taken")
        #expect(Set(all).count == all.count, "none taken twice")
        #expect(ends.count == 0, "none left waiting once the jobs started have run")
    }
}

/// The queue's side of ``TransferEnds``, as the test plays it: the jobs the reports started, run
/// one at a time, each taking every end waiting.
private final class Jobs: Sendable {
    private let ends: TransferEnds
    /// Jobs started and not run yet.
    private let started = Mutex(0)
    private let running = Mutex<[Int64]>([])

    init(ends: TransferEnds) {
        self.ends = ends
    }

    /// The ends the jobs took, in the order they took them.
    var taken: [Int64] { running.withLock { $0 } }

    func start() {
        started.withLock { $0 += 1 }
    }

    /// Runs the jobs started so far, one at a time, as the queue's thread does.
    func runStarted() {
        running.withLock { taken in
            while started.withLock({ count in
                guard count > 0 else { return false }
                count -= 1
                return true
            }) {
                taken.append(contentsOf: ends.takeAll().map(\.id))
            }
        }
    }
}
