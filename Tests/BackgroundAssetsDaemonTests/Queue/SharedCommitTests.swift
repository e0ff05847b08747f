/*
Abstract:
Tests that downloads starting or ending together share a commit of the queue.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("Commits shared by downloads that start or end together", .timeLimit(.minutes(2)))
struct SharedCommitTests {
    static let count = 6

    /// Six downloads from a server that answers only when the test lets it, all in flight at once.
    struct Scenario {
        let body = Array(DownloadQueueTests.file.prefix(4096))
        let answering = Flag()
        let server: ScriptedHTTPServer
        let harness: QueueHarness
        let rows: [DownloadRow]
        /// The queue's commits before the downloads were scheduled.
        let commitsBeforeSchedule: Int

        init() async throws {
            let body = body
            let answering = answering
            server = try ScriptedHTTPServer { _, _ in
                try? pollOnThisThread(until: { answering.isSet }, "the test to let the server answer")
                return .response("200 OK", [], body: body)
            }
            harness = try QueueHarness { $0.stallTimeout = 60 }
            try await harness.queue.start()
            commitsBeforeSchedule = harness.store.commits
            let server = server
            rows = try await harness.queue.enqueue((0..<SharedCommitTests.count).map { index in
                NewDownload(
                    bundleIdentifier: QueueHarness.bundleIdentifier,
                    descriptor: DownloadDescriptor(
                        identifier: "session-\(index)", uniqueIdentifier: UUID().uuidString,
                        url: server.url("/\(index).mp4").absoluteString, fileSize: body.count,
                        applicationGroupIdentifier: QueueHarness.appGroup),
                    isForeground: false)
            })
            let harness = harness
            let rows = rows
            try await poll(until: { rows.allSatisfy { harness.eventNames(of: $0.id).contains("began") } }, "every transfer to begin")
        }

        /// Lets every transfer end while the queue's thread is held, so all the ends wait for it
        /// together; `beforeTheEnds` runs while it is held.
        func endTogether(beforeTheEnds: () -> Void = {}) async throws {
            let holding = Flag()
            let harness = harness
            let hold = Task {
                // The transfers' own ends: each reports its body's end first, which waits here too.
                try await harness.queue.hold(until: { harness.queue.transferEnds.endCount == SharedCommitTests.count }, signalling: holding)
            }
            try await poll(until: { holding.isSet }, "the queue's thread to be held")
            beforeTheEnds()
            answering.set()
            try await hold.value
        }

        func stop() {
            answering.set()
            server.stop()
        }
    }

    @Test("Downloads started in one look at the queue are marked in one commit, and files that finished while the queue was busy in one more")
    func startsAndEndsShareCommits() async throws {
        let scenario = try await Scenario()
        defer { scenario.stop() }
        let (harness, rows) = (scenario.harness, scenario.rows)
        #expect(harness.store.commits - scenario.commitsBeforeSchedule == 2, "the schedule's insert, then one commit marking all \(Self.count) started")
        #expect(try rows.allSatisfy { try harness.store.download(id: $0.id)?.state == .downloading })

        let commitsBeforeEnds = harness.store.commits
        try await scenario.endTogether()
        for row in rows {
            guard case let .finished(finished, file) = try await harness.end(of: row.id) else {
                Issue.record("Download \(row.id) did not finish: \(harness.events)"); return
            }
            #expect(finished.state == .finished)
            #expect(finished.bytesDurable == Int64(scenario.body.count))
            #expect(Array(try Data(contentsOf: file)) == scenario.body)
        }
        #expect(harness.store.commits - commitsBeforeEnds == 1, "the \(Self.count) ends that waited together are recorded in one commit")
        #expect(try rows.allSatisfy { try harness.store.download(id: $0.id)?.state == .finished })
    }

    @Test("Files handed over together whose commit never came are finished by the next start, not fetched again")
    func handedOverTogetherSurviveALostCommit() async throws {
        let scenario = try await Scenario()
        defer { scenario.stop() }
        let (harness, rows) = (scenario.harness, scenario.rows)
        // The service dies after the hand-overs, before their commit: the store goes at the next write.
        try await scenario.endTogether {
            let store = harness.store
            store.beforeWrite.withLock { $0 = { store.close() } }
        }
        // A call on the queue runs after the job that recorded the ends.
        #expect(await harness.queue.running.isEmpty)
        for row in rows { #expect(!harness.eventNames(of: row.id).contains("finished")) }
        let folder = try #require(harness.paths.container(forAppGroup: QueueHarness.appGroup)).appending(path: StagingArea.handOverFolder)
        let handedOver = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".held") }
        #expect(handedOver.count == Self.count, "\(handedOver)")

        let restarted = try QueueHarness(restarting: harness)
        let left = try await restarted.queue.filesLeftForTheirOwners()
        try await restarted.queue.start()
        #expect(left.count == Self.count, "each file waits to be delivered again: \(left)")
        for row in rows {
            let stored = try #require(try restarted.store.download(id: row.id))
            #expect(stored.state == .finished)
            #expect(stored.bytesDurable == Int64(scenario.body.count))
        }
        #expect(scenario.server.requests.count == Self.count, "nothing was fetched again")
    }
}

extension DownloadQueue {
    /// Keeps the queue's thread busy until `condition` holds, as a long job would.
    func hold(until condition: @Sendable () -> Bool, signalling holding: Flag) throws {
        holding.set()
        try pollOnThisThread(until: condition, "the condition the queue's thread is held for")
    }
}

/// A flag one thread raises and another waits for.
final class Flag: Sendable {
    private let raised = Mutex(false)

    var isSet: Bool { raised.withLock { $0 } }

    func set() {
        raised.withLock { $0 = true }
    }
}
