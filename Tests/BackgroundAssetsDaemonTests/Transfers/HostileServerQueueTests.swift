/*
Abstract:
Tests that the queue ends a download a hostile server can never complete, with its reason, and keeps serving the others.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("The queue against a hostile server", .serialized, .timeLimit(.minutes(3)))
struct HostileServerQueueTests {
    static let file = HTTPTransferTests.file

    @Test("A download redirected to file:///etc/passwd fails at once, is not retried, and the queue goes on")
    func unfetchableRedirectFailsForGood() async throws {
        let server = try ScriptedHTTPServer { head, index in
            head.hasPrefix("GET /bad.mp4 ") ? .response("302 Found", ["Location: file:///etc/passwd"]) : HTTPTransferTests.fullResponse(head, index)
        }
        defer { server.stop() }
        let harness = try QueueHarness()
        try await harness.queue.start()
        let bad = try await harness.schedule(server.url("/bad.mp4"), identifier: "bad", fileSize: Self.file.count)
        guard case let .failed(row, failure) = try await harness.end(of: bad.id) else {
            Issue.record("Must fail: \(harness.events)"); return
        }
        #expect(row.attempts == 1, "never retried")
        #expect(failure.domain == WireFailure.urlDomain && failure.code == -1002, "\(failure)")
        #expect(failure.message.contains("file:///etc/passwd"), "\(failure.message)")
        #expect(server.requests.count == 1)

        let good = try await harness.schedule(server.url("/good.mp4"), identifier: "good", fileSize: Self.file.count)
        guard case .finished = try await harness.end(of: good.id) else { Issue.record("Must finish: \(harness.events)"); return }
    }

    @Test("A foreground download from a server that drips bytes fails after foregroundWait: a trickle is no progress")
    func tricklingForegroundDownloadEnds() async throws {
        // It resumes where each attempt stopped, so every attempt adds bytes to the file: a trickle.
        let etag = HTTPTransferTests.etag
        let server = try ScriptedHTTPServer { head, _ in
            guard let range = head.headerValue("Range"), let start = Int(range.dropFirst(6).dropLast()),
                  head.headerValue("If-Range") == etag else {
                return .dripping(Self.file, everyMilliseconds: 50, fields: ["ETag: \(etag)"])
            }
            return .dripping(Array(Self.file[start...]), everyMilliseconds: 50, status: "206 Partial Content",
                             fields: ["ETag: \(etag)", "Content-Range: bytes \(start)-\(Self.file.count - 1)/\(Self.file.count)"])
        }
        defer { server.stop() }
        // The queue's retries and its foreground wait run on a manual clock: each attempt still ends as
        // a stall after lowSpeedTime of real time, but the wait passes only once a second attempt has
        // resumed. On the machine's clock a busy machine could spend the whole 1.5 s on the first one.
        let harness = try QueueHarness(clock: ManualClock()) {
            $0.lowSpeedLimit = 1000
            $0.lowSpeedTime = 0.3
            $0.foregroundWait = 1.5
            $0.checkpointInterval = 0.1
        }
        let clock = try #require(harness.clock)
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count, foreground: true)
        try await harness.waitForTimers("the retry after the first stall", until: { $0.contains { $0 < .seconds(1) } })
        clock.advance(by: .seconds(1))
        try await poll(until: { server.requests.contains { $0.headerValue("Range") != nil } },
                       "the second attempt, resuming where the first stopped")
        #expect(!harness.hasEnded(row.id), "it failed with half a second of its wait left")
        clock.advance(by: .seconds(1))
        guard case let .failed(failed, failure) = try await harness.end(of: row.id) else {
            Issue.record("Must fail: \(harness.events)"); return
        }
        #expect(failure.code == -1001, "\(failure)")
        #expect(failure.message.contains("made no progress"), "\(failure.message)")
        #expect(failure.message.contains("lowSpeedLimit"), "\(failure.message)")
        #expect(failed.attempts >= 2, "retried like a stall before the wait ran out")
        #expect(server.requests.contains { $0.headerValue("Range") != nil }, "later attempts resumed, adding to the file")
    }

    @Test("A Retry-After of 2^63-1 seconds ends a foreground download with the server's words instead of a crash")
    func hugeRetryAfter() async throws {
        let server = try ScriptedHTTPServer { _, _ in
            .response("503 Service Unavailable", ["Retry-After: 9223372036854775807"])
        }
        defer { server.stop() }
        let harness = try QueueHarness { $0.foregroundWait = 0.1 }
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count, foreground: true)
        guard case let .failed(_, failure) = try await harness.end(of: row.id) else {
            Issue.record("Must fail: \(harness.events)"); return
        }
        #expect(failure.message.contains("Retry-After 9223372036854775"), "\(failure.message)")
    }
}
