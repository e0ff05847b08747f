/*
Abstract:
Tests of bounded waits: foreground and essential downloads that make no progress fail, naming why.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Bounded waits", .timeLimit(.minutes(1)))
struct BoundedWaitTests {
    static let file = HTTPTransferTests.file

    static func unavailable(_ head: String, _ index: Int) -> ScriptedHTTPServer.Reply {
        .response("503 Service Unavailable")
    }

    @Test("A foreground download against a server answering 503 for ever fails after foregroundWait, naming the status and the URL")
    func foregroundFailsAfterWait() async throws {
        let server = try ScriptedHTTPServer(script: Self.unavailable)
        defer { server.stop() }
        let harness = try QueueHarness { $0.foregroundWait = 0.5 }
        try await harness.queue.start()
        let started = ContinuousClock.now
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count, foreground: true)
        guard case let .failed(_, failure) = try await harness.end(of: row.id, timeout: .seconds(10)) else {
            Issue.record("Must fail"); return
        }
        #expect(ContinuousClock.now - started >= .milliseconds(500), "it gets the whole wait")
        #expect(server.requests.count >= 2, "it retried while it could")
        #expect(failure.message.contains("503"), "\(failure.message)")
        #expect(failure.message.contains(server.url("/a.mp4").absoluteString), "\(failure.message)")
        #expect(failure.message.contains("no progress"), "\(failure.message)")
    }

    @Test("A promoted download from a server that answers nothing fails at foregroundWait, not at the stall timeout")
    func silentServerFailsAtTheWait() async throws {
        let server = try ScriptedHTTPServer { _, _ in ScriptedHTTPServer.Reply([], stallAfterwards: true) }
        defer { server.stop() }
        let harness = try QueueHarness {
            $0.foregroundWait = 0.5
            $0.stallTimeout = 30
        }
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count)
        try await poll(until: { harness.eventNames(of: row.id).contains("began") }, timeout: .seconds(10), "the transfer")
        // The app promotes it: a person waits from now on.
        let started = ContinuousClock.now
        try await harness.queue.promote(id: row.id)
        guard case let .failed(_, failure) = try await harness.end(of: row.id, timeout: .seconds(20)) else {
            Issue.record("Must fail"); return
        }
        // The stall timeout (30 s) would have ended the attempt much later; the wait's deadline ends it.
        #expect(ContinuousClock.now - started < .seconds(15), "failed after \(ContinuousClock.now - started)")
        #expect(failure.message.contains("made no progress"), "\(failure.message)")
        #expect(failure.message.contains("sent nothing more before the wait ran out"), "\(failure.message)")
        #expect(failure.code == -1001, "timed out, as URLSession says")
        #expect(try harness.store.download(id: row.id)?.state == .failed)
    }

    @Test("An essential download fails after essentialWait whatever the cause, so the install ends")
    func essentialFailsAfterWait() async throws {
        let server = try ScriptedHTTPServer(script: Self.unavailable)
        defer { server.stop() }
        let harness = try QueueHarness { $0.essentialWait = 0.5 }
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count, essential: true)
        guard case let .failed(_, failure) = try await harness.end(of: row.id, timeout: .seconds(10)) else {
            Issue.record("Must fail"); return
        }
        #expect(failure.message.contains("essential download made no progress"), "\(failure.message)")
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
        guard case let .failed(_, failure) = try await harness.end(of: row.id, timeout: .seconds(5)) else {
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
        let harness = try QueueHarness {
            $0.foregroundWait = 2
            $0.checkpointInterval = 0.01
        }
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count, foreground: true)
        guard case let .failed(_, failure) = try await harness.end(of: row.id, timeout: .seconds(15)) else {
            Issue.record("Must fail"); return
        }
        #expect(server.requests.count >= 2)
        #expect(failure.message.contains("started over from zero"), "\(failure.message)")
    }

    @Test("A background download is not bounded by the waits: it retries until the server recovers")
    func backgroundKeepsRetrying() async throws {
        let server = try ScriptedHTTPServer { head, index in
            index < 6 ? .response("503 Service Unavailable") : HTTPTransferTests.fullResponse(head, index)
        }
        defer { server.stop() }
        let harness = try QueueHarness {
            $0.foregroundWait = 0.1
            $0.essentialWait = 0.1
            $0.retryMaxDelay = 0.05
        }
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count)
        guard case .finished = try await harness.end(of: row.id, timeout: .seconds(10)) else {
            Issue.record("Must finish"); return
        }
        #expect(server.requests.count == 7)
    }
}
