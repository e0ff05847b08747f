/*
Abstract:
Tests of bounded waits: foreground and essential downloads that make no progress fail, naming why.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Bounded waits", .timeLimit(.minutes(3)))
struct BoundedWaitTests {
    static let file = HTTPTransferTests.file

    static func unavailable(_ head: String, _ index: Int) -> ScriptedHTTPServer.Reply {
        .response("503 Service Unavailable")
    }

    /// The foreground and essential waits of these tests: the defaults, passed on the queue's clock.
    static let foregroundWait = 60.0
    static let essentialWait = 30.0

    /// Whether the queue waits for a retry due within a second, and checks the wait later on.
    static func retryAndWaitCheck(before check: Duration) -> @Sendable ([Duration]) -> Bool {
        { deadlines in deadlines.contains { $0 < .seconds(1) } && deadlines.contains { $0 > .seconds(1) && $0 <= check } }
    }

    @Test("A foreground download against a server answering 503 for ever fails once foregroundWait passes, not before, naming the status and the URL")
    func foregroundFailsAfterWait() async throws {
        let server = try ScriptedHTTPServer(script: Self.unavailable)
        defer { server.stop() }
        let failure = try await Self.failureOnceWaitPasses(of: server, wait: Self.foregroundWait, essential: false)
        #expect(failure?.message.contains("made no progress for 61.0 s") == true, "\(String(describing: failure))")
        #expect(failure?.message.contains("503") == true, "\(String(describing: failure))")
        #expect(failure?.message.contains(server.url("/a.mp4").absoluteString) == true, "\(String(describing: failure))")
    }

    /// Schedules a download from `server` (which answers 503 for ever) that someone waits for, takes
    /// the queue's clock to a second before `wait` (a retry fails then, and the download still
    /// waits), then to a second after it, and returns how the download failed.
    static func failureOnceWaitPasses(of server: ScriptedHTTPServer, wait: Double, essential: Bool) async throws -> WireFailure? {
        let harness = try QueueHarness(clock: ManualClock()) {
            $0.foregroundWait = Self.foregroundWait
            $0.essentialWait = Self.essentialWait
        }
        let clock = try #require(harness.clock)
        try await harness.queue.start()
        let row = try await harness.schedule(
            server.url("/a.mp4"), fileSize: Self.file.count, essential: essential, foreground: !essential)
        // The first attempt failed: the wait runs from here, and a retry is due.
        try await harness.waitForTimers("a retry and the wait's check", until: Self.retryAndWaitCheck(before: .seconds(wait + 1)))

        clock.advance(by: .seconds(wait - 1))
        try await poll(until: { server.requests.count >= 2 }, "the retry")
        try await harness.waitForTimers("the next retry and the wait's check", until: Self.retryAndWaitCheck(before: .seconds(2)))
        #expect(!harness.hasEnded(row.id), "it failed with a second of its wait left")

        clock.advance(by: .seconds(2))
        guard case let .failed(_, failure) = try await harness.end(of: row.id) else {
            Issue.record("Must fail"); return nil
        }
        return failure
    }

    @Test("A promoted download from a server that answers nothing fails at foregroundWait, not at the stall timeout")
    func silentServerFailsAtTheWait() async throws {
        let server = try ScriptedHTTPServer { _, _ in ScriptedHTTPServer.Reply([], stallAfterwards: true) }
        defer { server.stop() }
        let harness = try QueueHarness(clock: ManualClock()) {
            $0.foregroundWait = Self.foregroundWait
            // Far beyond the test: only the wait can end the attempt.
            $0.stallTimeout = 3600
        }
        let clock = try #require(harness.clock)
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count)
        try await poll(until: { harness.eventNames(of: row.id).contains("began") }, "the transfer")
        // The app promotes it: a person waits from now on.
        try await harness.queue.promote(id: row.id)
        try await harness.waitForTimers("the wait's check", until: { $0.contains { $0 > .seconds(60) } })

        clock.advance(by: .seconds(Self.foregroundWait - 1))
        try await harness.waitForTimers("the wait's check, a second away", until: { $0.contains { $0 <= .seconds(2) } })
        #expect(!harness.hasEnded(row.id), "it failed with a second of its wait left")

        clock.advance(by: .seconds(2))
        guard case let .failed(_, failure) = try await harness.end(of: row.id) else {
            Issue.record("Must fail"); return
        }
        #expect(failure.message.contains("made no progress for 61.0 s"), "\(failure.message)")
        #expect(failure.message.contains("sent nothing more before the wait ran out"), "\(failure.message)")
        #expect(failure.code == -1001, "timed out, as URLSession says")
        #expect(try harness.store.download(id: row.id)?.state == .failed)
    }

    @Test("An essential download fails once essentialWait passes, whatever the cause, so the install ends")
    func essentialFailsAfterWait() async throws {
        let server = try ScriptedHTTPServer(script: Self.unavailable)
        defer { server.stop() }
        let failure = try await Self.failureOnceWaitPasses(of: server, wait: Self.essentialWait, essential: true)
        #expect(failure?.message.contains("essential download made no progress for 31.0 s") == true, "\(String(describing: failure))")
    }

    @Test("A Retry-After longer than what is left of the wait (within retryMaxDelay) fails at once, quoting the server")
    func longRetryAfterFailsAtOnce() async throws {
        let server = try ScriptedHTTPServer { _, _ in .response("503 Service Unavailable", ["Retry-After: 120"]) }
        defer { server.stop() }
        let harness = try QueueHarness {
            $0.foregroundWait = 30
            $0.retryMaxDelay = 300
        }
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count, foreground: true)
        guard case let .failed(_, failure) = try await harness.end(of: row.id) else {
            Issue.record("Must fail"); return
        }
        #expect(server.requests.count == 1)
        #expect(failure.message.contains("answered 503 with Retry-After 120"), "\(failure.message)")
    }

    @Test("Bytes fetched again after a restart from zero are not progress: a server whose ETag changes on every cut attempt ends in a failure that says so")
    func restartsAreNotProgress() async throws {
        let server = try ScriptedHTTPServer { _, index in
            // Every answer is a new version, cut after 100,000 bytes.
            .response("200 OK", ["ETag: \"v\(index)\"", "Content-Length: \(Self.file.count)"], body: Array(Self.file.prefix(100_000)))
        }
        defer { server.stop() }
        let harness = try QueueHarness(clock: ManualClock()) {
            $0.foregroundWait = 10
            $0.checkpointInterval = 0.01
        }
        let clock = try #require(harness.clock)
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count, foreground: true)
        // One retry every 4 s of the clock: the third comes after the 10 s wait.
        for attempt in 1...3 {
            try await poll(until: { server.requests.count >= attempt }, "attempt \(attempt)")
            try await harness.waitForTimers("retry \(attempt)", until: { $0.contains { $0 < .seconds(1) } })
            #expect(!harness.hasEnded(row.id), "it ended after \(attempt) attempt(s), within its wait")
            clock.advance(by: .seconds(4))
        }
        guard case let .failed(_, failure) = try await harness.end(of: row.id) else {
            Issue.record("Must fail"); return
        }
        #expect(failure.message.contains("started over from zero"), "\(failure.message)")
    }

    @Test("A background download is not bounded by the waits: it retries until the server recovers")
    func backgroundKeepsRetrying() async throws {
        let server = try ScriptedHTTPServer { head, index in
            index < 6 ? .response("503 Service Unavailable") : HTTPTransferTests.fullResponse(head, index)
        }
        defer { server.stop() }
        let harness = try QueueHarness(clock: ManualClock()) {
            $0.foregroundWait = 1
            $0.essentialWait = 1
        }
        let clock = try #require(harness.clock)
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count)
        // Each failure waits for its retry twenty seconds of the clock: two minutes without progress in all.
        for attempt in 1...6 {
            try await poll(until: { server.requests.count >= attempt }, "attempt \(attempt)")
            try await harness.waitForTimers("retry \(attempt)", until: { $0.contains { $0 < .seconds(1) } })
            clock.advance(by: .seconds(20))
        }
        guard case .finished = try await harness.end(of: row.id) else {
            Issue.record("Must finish"); return
        }
        #expect(server.requests.count == 7)
    }
}
