/*
Abstract:
Tests of the download queue against scripted servers: hand-over, retries, connectivity, promotion, credentials.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("Running the download queue", .timeLimit(.minutes(3)))
struct DownloadQueueTests {
    static let file = HTTPTransferTests.file
    static let etag = HTTPTransferTests.etag

    @Test("A finished download is handed over inside the app group container")
    func handsOverFinishedFile() async throws {
        let server = try ScriptedHTTPServer(script: HTTPTransferTests.fullResponse)
        defer { server.stop() }
        let harness = try QueueHarness()
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count)
        guard case let .finished(finished, file) = try await harness.end(of: row.id) else {
            Issue.record("The download failed: \(harness.events)"); return
        }
        #expect(finished.state == .finished)
        #expect(finished.expectedLength == Int64(Self.file.count), "the server's length is recorded for status")
        #expect(file.path.hasPrefix(harness.paths.root.path + "/containers/\(QueueHarness.appGroup)/Library/Caches/com.apple.BackgroundAssets/BAFile-"))
        #expect(Array(try Data(contentsOf: file)) == Self.file)
        #expect(harness.eventNames(of: row.id).first == "began")
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.paths.stagingDirectory.path).isEmpty)
        #expect(try await !harness.queue.hasWork())
    }

    @Test("A download costs four writes of its row: scheduled, started, its validator's checkpoint, ended")
    func fewCommitsPerDownload() async throws {
        #expect(Int64(Self.file.count) > TransferRecorder.largestFileFetchedAgainAfterACrash, "a file whose end is checkpointed")
        let server = try ScriptedHTTPServer(script: HTTPTransferTests.fullResponse)
        defer { server.stop() }
        let harness = try QueueHarness()
        try await harness.queue.start()
        let writesBefore = harness.store.rowWrites
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count)
        guard case .finished = try await harness.end(of: row.id) else {
            Issue.record("The download failed: \(harness.events)"); return
        }
        // Each write is a commit. The validator's checkpoint also records the boot writing the
        // staging file; the end records the final length.
        #expect(harness.store.rowWrites - writesBefore == 4)
        let stored = try #require(try harness.store.download(id: row.id))
        #expect(stored.entityTag == Self.etag)
        #expect(try harness.store.writtenBoot(id: row.id) == BootIdentity.current())
    }

    @Test("A small file's end is recorded in three writes: its validator is not worth a commit of its own")
    func smallFileSkipsItsLastCheckpoint() async throws {
        let small = Array(Self.file.prefix(20_480))
        let server = try ScriptedHTTPServer { _, _ in .response("200 OK", ["ETag: \(Self.etag)"], body: small) }
        defer { server.stop() }
        let harness = try QueueHarness()
        try await harness.queue.start()
        let writesBefore = harness.store.rowWrites
        let row = try await harness.schedule(server.url("/small.mp4"), fileSize: small.count)
        guard case let .finished(finished, file) = try await harness.end(of: row.id) else {
            Issue.record("The download failed: \(harness.events)"); return
        }
        #expect(harness.store.rowWrites - writesBefore == 3, "scheduled, started, ended")
        #expect(finished.bytesDurable == Int64(small.count))
        #expect(Array(try Data(contentsOf: file)) == small)
        // Nothing on record to resume with: a crash before the end fetches the file again from zero.
        let stored = try #require(try harness.store.download(id: row.id))
        #expect(stored.entityTag == nil)
        #expect(try harness.store.writtenBoot(id: row.id) == nil)
    }

    @Test("A 503 with Retry-After is retried, then succeeds")
    func retriesServerErrors() async throws {
        let server = try ScriptedHTTPServer { head, index in
            index == 0 ? .response("503 Service Unavailable", ["Retry-After: 0"]) : HTTPTransferTests.fullResponse(head, index)
        }
        defer { server.stop() }
        let harness = try QueueHarness()
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count)
        guard case let .finished(finished, _) = try await harness.end(of: row.id) else {
            Issue.record("The download failed: \(harness.events)"); return
        }
        #expect(finished.attempts == 2)
        #expect(harness.eventNames(of: row.id).contains("paused"))
        #expect(server.requests.count == 2)
    }

    @Test("A 404 fails the download with a URL error and removes its staging file")
    func failsOnClientErrors() async throws {
        let server = try ScriptedHTTPServer { _, _ in .response("404 Not Found") }
        defer { server.stop() }
        let harness = try QueueHarness()
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/missing.mp4"), fileSize: 10)
        guard case let .failed(failed, failure) = try await harness.end(of: row.id) else {
            Issue.record("A 404 must fail"); return
        }
        #expect(failed.state == .failed)
        #expect(failure.domain == WireFailure.urlDomain)
        #expect(failure.code == -1011)
        #expect(failure.message.contains("404"))
        #expect(server.requests.count == 1, "a 404 is not retried")
        #expect(!FileManager.default.fileExists(atPath: harness.paths.stagingDirectory.appending(path: "\(row.id).part").path))
    }

    @Test("A background download waits for connectivity without spending attempts")
    func backgroundWaitsForConnectivity() async throws {
        let interval = 5.0
        var nobody: RefusingPort? = try RefusingPort()
        let port = try #require(nobody?.port)
        let harness = try QueueHarness(clock: ManualClock()) { $0.connectivityProbeInterval = interval }
        let clock = try #require(harness.clock)
        try await harness.queue.start()
        let row = try await harness.schedule(URL(string: "http://127.0.0.1:\(port)/a.mp4")!, fileSize: Self.file.count)
        let pauses = { harness.eventNames(of: row.id).count { $0 == "paused" } }
        // Each probe is due on the queue's clock: a round waits for the refusal and for the timer of
        // the next probe, then moves the clock to it. Nothing but this process's own work stands
        // between, so only a crowded executor can stretch a wait.
        for round in 1...3 {
            if round > 1 { clock.advance(by: .seconds(interval) + .milliseconds(1)) }
            try await poll(until: { pauses() >= round },
                           "connectivity wait \(round); the download's events so far: \(harness.eventNames(of: row.id))")
            try await harness.waitForTimers("the next probe's wake-up", until: ConnectivityWaitsTests.probeWakeUpOnly(interval))
            #expect(pauses() == round, "one attempt per probe interval: \(harness.eventNames(of: row.id))")
        }
        #expect(try harness.store.download(id: row.id)?.attempts ?? 99 <= 1)
        let server = try ScriptedHTTPServer(takingOver: try #require(nobody), script: HTTPTransferTests.fullResponse)
        defer { server.stop() }
        nobody = nil
        clock.advance(by: .seconds(interval) + .milliseconds(1))
        guard case .finished = try await harness.end(of: row.id) else {
            Issue.record("Must finish once the server is up: \(harness.eventNames(of: row.id))"); return
        }
    }

    @Test("With foregroundWait 0, a foreground download fails at once when the server cannot be reached")
    func foregroundFailsFast() async throws {
        let nobody = try RefusingPort()
        // Held to the end of the test, so no other test's server takes the port meanwhile.
        defer { withExtendedLifetime(nobody) {} }
        let port = nobody.port
        let harness = try QueueHarness { $0.foregroundWait = 0 }
        try await harness.queue.start()
        let row = try await harness.schedule(URL(string: "http://127.0.0.1:\(port)/a.mp4")!, fileSize: 10, foreground: true)
        guard case let .failed(_, failure) = try await harness.end(of: row.id) else {
            Issue.record("Must fail"); return
        }
        #expect(failure.code == -1004)
        #expect(!harness.eventNames(of: row.id).contains("paused"))
    }

    @Test("An essential download waits for connectivity until essentialWait passes, then fails")
    func essentialWaitsBriefly() async throws {
        let nobody = try RefusingPort()
        // Held to the end of the test, so no other test's server takes the port meanwhile.
        defer { withExtendedLifetime(nobody) {} }
        let port = nobody.port
        let harness = try QueueHarness(clock: ManualClock()) { $0.essentialWait = 30 }
        let clock = try #require(harness.clock)
        try await harness.queue.start()
        let row = try await harness.schedule(URL(string: "http://127.0.0.1:\(port)/a.mp4")!, fileSize: 10, essential: true)
        // It waits for connectivity: the next probe is due, and the wait is checked at its end.
        try await harness.waitForTimers("a probe and the wait's check", until: { deadlines in
            deadlines.contains { $0 < .seconds(1) } && deadlines.contains { $0 > .seconds(30) }
        })
        #expect(harness.eventNames(of: row.id).contains("paused"), "it waits before failing")
        clock.advance(by: .seconds(29))
        try await harness.waitForTimers("the next probe", until: { deadlines in
            deadlines.contains { $0 < .seconds(1) } && deadlines.contains { $0 > .seconds(1) && $0 < .seconds(2) }
        })
        #expect(!harness.hasEnded(row.id), "it failed with a second of its wait left")
        clock.advance(by: .seconds(2))
        guard case .failed = try await harness.end(of: row.id) else { Issue.record("Must fail"); return }
    }

    @Test("Promotion pauses a background transfer and continues it at full speed from the same byte")
    func promotesRunningDownload() async throws {
        let server = try ScriptedHTTPServer(script: HTTPTransferTests.rangeResponse)
        defer { server.stop() }
        // Paced, the 300 KB would take five minutes: finishing at all shows the promotion lifted the limit.
        let harness = try QueueHarness { $0.backgroundBandwidthLimit = 1_000 }
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count)
        try await poll(until: { harness.eventNames(of: row.id).contains("progress") }, "progress")
        try await harness.queue.promote(id: row.id)
        guard case .finished = try await harness.end(of: row.id, timeout: .seconds(60)) else { Issue.record("Must finish"); return }
        let names = harness.eventNames(of: row.id)
        let pause = try #require(names.firstIndex(of: "paused"))
        #expect(names[pause + 1] == "began")
        #expect(server.requests.count == 1, "the same connection carries on: no byte is fetched twice")
        #expect(try harness.store.download(id: row.id)?.isForeground == true)
    }

    @Test("Background transfers never receive more bodies at once than the concurrency limit")
    func boundsConcurrency() async throws {
        let server = try ScriptedHTTPServer(script: HTTPTransferTests.fullResponse)
        defer { server.stop() }
        let harness = try QueueHarness { $0.maxConcurrentDownloads = 2; $0.backgroundBandwidthLimit = 400_000 }
        // Counted by the transfers themselves, from a body's first byte to its last: a transfer
        // gives its slot up only after that, while it syncs (``DownloadQueue/releaseSlotsOfWholeBodies()``),
        // so the queue's events, which run to the end of the sync, may overlap three at a time.
        // Sampling the store instead missed every transfer when a busy machine let them all end first.
        let receiving = ReceivingCounter()
        await harness.queue.observeBodies { _ in ReceivingObserver(size: Self.file.count, counter: receiving) }
        try await harness.queue.start()
        var ids: [Int64] = []
        for index in 0..<5 {
            ids.append(try await harness.schedule(server.url("/\(index).mp4"), identifier: "session-\(index)", fileSize: Self.file.count).id)
        }
        for id in ids {
            guard case .finished = try await harness.end(of: id) else { Issue.record("\(id) did not finish: \(harness.events)"); return }
        }
        #expect(receiving.bodies == 5, "every body counted once")
        #expect((1...2).contains(receiving.peak), "peak \(receiving.peak): five downloads, at most two receiving at a time")
    }

    @Test("A 401 asks for credentials; a credential answer retries and succeeds")
    func answersChallengeWithCredential() async throws {
        let server = try ScriptedHTTPServer { head, index in
            head.headerValue("Authorization") == "Basic dXNlcjpzZWNyZXQ="
                ? HTTPTransferTests.fullResponse(head, index)
                : .response("401 Unauthorized", ["WWW-Authenticate: Basic realm=\"sessions\""])
        }
        defer { server.stop() }
        let harness = try QueueHarness()
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/protected/a.mp4"), fileSize: Self.file.count)
        let challenge = try await poll("a challenge") {
            harness.events.lazy.compactMap { event -> ChallengeDescriptor? in
                if case let .challenge(challenged, challenge) = event, challenged.id == row.id { challenge } else { nil }
            }.first
        }
        #expect(challenge.realm == "sessions")
        #expect(challenge.port == server.port)
        try await harness.queue.answerChallenge(id: row.id, answer: ChallengeAnswer(disposition: .useCredential, user: "user", password: "secret"))
        guard case .finished = try await harness.end(of: row.id) else { Issue.record("Must finish"); return }
    }

    @Test("Default handling of a challenge fails the download")
    func defaultHandlingFails() async throws {
        let server = try ScriptedHTTPServer { _, _ in .response("401 Unauthorized", ["WWW-Authenticate: Basic realm=\"x\""]) }
        defer { server.stop() }
        let harness = try QueueHarness()
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/protected/a.mp4"), fileSize: 10)
        try await poll(until: { harness.eventNames(of: row.id).contains("challenge") }, "a challenge")
        try await harness.queue.answerChallenge(id: row.id, answer: ChallengeAnswer(disposition: .performDefaultHandling))
        guard case let .failed(_, failure) = try await harness.end(of: row.id) else { Issue.record("Must fail"); return }
        #expect(failure.code == -1013)
    }

    @Test("Cancelling a running download removes it and its staging file")
    func cancelsRunningDownload() async throws {
        let server = try ScriptedHTTPServer(script: HTTPTransferTests.fullResponse)
        defer { server.stop() }
        let harness = try QueueHarness { $0.backgroundBandwidthLimit = 20_000 }
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count)
        try await poll(until: { harness.eventNames(of: row.id).contains("progress") }, "progress")
        try await harness.queue.cancel(id: row.id)
        #expect(try harness.store.download(id: row.id) == nil)
        #expect(!FileManager.default.fileExists(atPath: harness.paths.stagingDirectory.appending(path: "\(row.id).part").path))
        #expect(try await !harness.queue.hasWork())
        #expect(!harness.eventNames(of: row.id).contains("finished"))
    }

    @Test("After a crash, an interrupted download resumes from its last checkpoint")
    func resumesAfterRestart() async throws {
        let server = try ScriptedHTTPServer(script: HTTPTransferTests.rangeResponse)
        defer { server.stop() }
        let harness = try QueueHarness()
        // Leave the row as a killed service would: transferring, with 120,000 durable bytes.
        let row = try Self.insert(from: server, into: harness, stagingBytes: Data(Self.file.prefix(150_000))) { row in
            row.state = .downloading
            row.bytesDurable = 120_000
            row.entityTag = Self.etag
        }
        try await harness.queue.start()
        guard case let .finished(_, file) = try await harness.end(of: row.id) else { Issue.record("Must finish"); return }
        #expect(server.requests.first?.headerValue("Range") == "bytes=120000-")
        #expect(Array(try Data(contentsOf: file)) == Self.file)
    }

    @Test("A download's first attempt keeps nothing of a file an earlier download with its row id left")
    func firstAttemptIgnoresLeftovers() async throws {
        let server = try ScriptedHTTPServer(script: HTTPTransferTests.rangeResponse)
        defer { server.stop() }
        let harness = try QueueHarness()
        // Bytes of another file under the new row's id, as a download deleted while the service was
        // stopped leaves them: longer than the file, and not its bytes.
        let row = try Self.insert(from: server, into: harness, stagingBytes: Data(repeating: 0xEE, count: 400_000))
        try await harness.queue.start()
        guard case let .finished(_, file) = try await harness.end(of: row.id) else { Issue.record("Must finish"); return }
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.headerValue("Range") == nil, "nothing of the file left behind is resumed")
        #expect(Array(try Data(contentsOf: file)) == Self.file)
    }

    /// Inserts a download of ``file`` from `server` before the queue starts, with `stagingBytes` in
    /// its staging file and its row as `leave` changes it: what a stopped service leaves behind.
    private static func insert(
        from server: ScriptedHTTPServer, into harness: QueueHarness, stagingBytes: Data,
        leave: (inout DownloadRow) -> Void = { _ in }
    ) throws -> DownloadRow {
        let descriptor = DownloadDescriptor(
            identifier: "wwdc23-10108", uniqueIdentifier: UUID().uuidString, url: server.url("/a.mp4").absoluteString,
            fileSize: file.count, applicationGroupIdentifier: QueueHarness.appGroup)
        let inserted = try harness.store.insert(NewDownload(bundleIdentifier: QueueHarness.bundleIdentifier, descriptor: descriptor), at: .now)
        let row = try harness.store.update(id: inserted.id, at: .now, leave)
        try FileManager.default.createDirectory(at: harness.paths.stagingDirectory, withIntermediateDirectories: true)
        try stagingBytes.write(to: harness.paths.stagingDirectory.appending(path: "\(row.id).part"))
        return row
    }
}

/// How many transfers receive a body at once, and the most that ever did.
private final class ReceivingCounter: Sendable {
    private let state = Mutex((now: 0, peak: 0, bodies: 0))

    var peak: Int { state.withLock { $0.peak } }
    var bodies: Int { state.withLock { $0.bodies } }

    func began() {
        state.withLock { state in
            state.now += 1
            state.peak = max(state.peak, state.now)
        }
    }

    func ended() {
        state.withLock { state in
            state.now -= 1
            state.bodies += 1
        }
    }
}

/// Counts its transfer as receiving from the body's first byte to the last of a file of `size`
/// bytes, and leaves every byte to the staging file.
private final class ReceivingObserver: TransferBodyObserver {
    private let size: Int
    private let counter: ReceivingCounter
    private let received = Mutex(0)

    init(size: Int, counter: ReceivingCounter) {
        self.size = size
        self.counter = counter
    }

    func resumableOffset(upTo offset: Int64) -> Int64 { offset }

    func bodyBegan(at offset: Int64, partFile: Int32) {
        received.withLock { $0 = Int(offset) }
        counter.began()
    }

    func bodyArrived(_ bytes: UnsafeRawBufferPointer) throws(TransferError) -> Range<Int> {
        let isWhole = received.withLock { received in
            received += bytes.count
            return received == size
        }
        // Before the transfer reports its body's end, so before its slot can go to another.
        if isWhole { counter.ended() }
        return 0..<0
    }

    func checkpoint(at length: Int64) -> (@Sendable () -> Void)? { nil }
}
