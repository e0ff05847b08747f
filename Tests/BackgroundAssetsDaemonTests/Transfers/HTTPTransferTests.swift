/*
Abstract:
Tests of one transfer attempt against scripted servers: resuming, restarting, completing, and failing well.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("Transferring a file", .timeLimit(.minutes(3)))
struct HTTPTransferTests {
    static let file = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
    static let etag = "\"v1\""

    /// Runs a transfer on its own thread, as the service does, and collects what it reported.
    static func transfer(
        _ request: TransferRequest, control: TransferControl = TransferControl()
    ) async -> (result: Result<TransferResult, TransferError>, events: [TransferEvent]) {
        let events = Mutex<[TransferEvent]>([])
        let result = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let transfer = HTTPTransfer(request: request, control: control) { event in
                    events.withLock { $0.append(event) }
                }
                continuation.resume(returning: Result { () throws(TransferError) in try transfer.run() })
            }
        }
        return (result, events.withLock { $0 })
    }

    static func request(_ url: URL, in folder: URL, onDisk: Int = 0, validator: ResumeValidator? = .entityTag(etag)) throws -> TransferRequest {
        let part = folder.appending(path: "download.part")
        try Data(file.prefix(onDisk)).write(to: part)
        return TransferRequest(url: url, partFile: part, expectedLength: Int64(file.count), durableLength: Int64(onDisk),
                               validator: onDisk > 0 ? validator : nil, stallTimeout: .seconds(2))
    }

    static func bytesOnDisk(_ request: TransferRequest) throws -> [UInt8] {
        Array(try Data(contentsOf: request.partFile))
    }

    static func fullResponse(_ head: String, _ index: Int) -> ScriptedHTTPServer.Reply {
        .response("200 OK", ["ETag: \(etag)"], body: file)
    }

    static func rangeResponse(_ head: String, _ index: Int) -> ScriptedHTTPServer.Reply {
        guard let range = head.headerValue("Range"), let start = Int(range.dropFirst(6).dropLast()),
              head.headerValue("If-Range") == etag else { return fullResponse(head, index) }
        return .response("206 Partial Content", ["ETag: \(etag)", "Content-Range: bytes \(start)-\(file.count - 1)/\(file.count)"],
                         body: Array(file[start...]))
    }

    @Test("Interim responses (100 Continue, 103 Early Hints) are skipped")
    func skipsInterimResponses() async throws {
        let server = try ScriptedHTTPServer { _, _ in
            let interim = Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n".utf8)
            return ScriptedHTTPServer.Reply(interim + ScriptedHTTPServer.Reply.response("200 OK", ["ETag: \(Self.etag)"], body: Self.file).bytes)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let request = try Self.request(server.url("/a.mp4"), in: folder.url)
        let (result, _) = await Self.transfer(request)
        #expect(try result.get().length == Int64(Self.file.count))
        #expect(try Self.bytesOnDisk(request) == Self.file)
    }

    @Test("A response head dripped a byte at a time is dropped after the stall timeout, not hours later")
    func dripHeadIsBounded() async throws {
        let server = try ScriptedHTTPServer { _, _ in
            var reply = ScriptedHTTPServer.Reply.response(
                "200 OK", ["ETag: \(Self.etag)", "X-Padding: " + String(repeating: "x", count: 1000)], body: Self.file)
            // A byte every 100 ms, well within the stall timeout: the head alone would take two
            // minutes, twice the suite's time limit, so only the head's deadline can end it.
            reply.dripMilliseconds = 100
            return reply
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        var request = try Self.request(server.url("/a.mp4"), in: folder.url)
        request.stallTimeout = .milliseconds(800)
        let started = ContinuousClock.now
        let (result, _) = await Self.transfer(request)
        #expect(throws: TransferError.self) { try result.get() }
        if case let .failure(error) = result {
            #expect(error.kind == .stalled, "\(error)")
            #expect(error.isRetryable)
        }
        #expect(ContinuousClock.now - started >= .milliseconds(800), "it ended before the head's deadline")
    }

    @Test("A fresh download writes the file and records its validator")
    func downloadsFromScratch() async throws {
        let server = try ScriptedHTTPServer(script: Self.fullResponse)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let request = try Self.request(server.url("/a.mp4"), in: folder.url)
        let (result, events) = await Self.transfer(request)
        #expect(try result.get() == TransferResult(length: Int64(Self.file.count), validator: .entityTag(Self.etag), finalURL: request.url))
        #expect(try Self.bytesOnDisk(request) == Self.file)
        #expect(events.first == .began(offset: 0, expectedLength: Int64(Self.file.count)))
        #expect(events.contains(.checkpoint(length: Int64(Self.file.count), validator: .entityTag(Self.etag))))
        let sent = try #require(server.requests.first)
        #expect(sent.headerValue("Range") == nil)
        #expect(sent.headerValue("Accept-Encoding") == "identity")
    }

    @Test("A resumed download asks for the rest with Range and If-Range")
    func resumesWithRangeAndIfRange() async throws {
        let server = try ScriptedHTTPServer(script: Self.rangeResponse)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let request = try Self.request(server.url("/a.mp4"), in: folder.url, onDisk: 100_000)
        let (result, events) = await Self.transfer(request)
        #expect(try result.get().length == Int64(Self.file.count))
        #expect(try Self.bytesOnDisk(request) == Self.file)
        #expect(server.requests.first?.headerValue("Range") == "bytes=100000-")
        #expect(server.requests.first?.headerValue("If-Range") == Self.etag)
        #expect(events.first == .began(offset: 100_000, expectedLength: Int64(Self.file.count)))
    }

    @Test("Bytes past the durable length are discarded before resuming")
    func cutsBackToDurableLength() async throws {
        let server = try ScriptedHTTPServer(script: Self.rangeResponse)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        var request = try Self.request(server.url("/a.mp4"), in: folder.url, onDisk: 0)
        // A crash left 5,000 unsynced garbage bytes after the 1,000 recorded ones.
        try Data(Self.file.prefix(1_000) + [UInt8](repeating: 0xEE, count: 5_000)).write(to: request.partFile)
        request.durableLength = 1_000
        request.validator = .entityTag(Self.etag)
        let (result, _) = await Self.transfer(request)
        #expect(try result.get().length == Int64(Self.file.count))
        #expect(server.requests.first?.headerValue("Range") == "bytes=1000-")
        #expect(try Self.bytesOnDisk(request) == Self.file)
    }

    @Test("Bytes on disk with no validator on record are fetched again from zero, without a range")
    func restartsBytesWithoutValidator() async throws {
        let server = try ScriptedHTTPServer(script: Self.rangeResponse)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        // What a crash leaves of a small file whose validator was never recorded: its bytes, nothing else.
        let request = try Self.request(server.url("/a.mp4"), in: folder.url, onDisk: 100_000, validator: nil)
        try Data([UInt8](repeating: 0xAA, count: 100_000)).write(to: request.partFile)
        let (result, events) = await Self.transfer(request)
        #expect(try result.get().length == Int64(Self.file.count))
        #expect(server.requests.first?.headerValue("Range") == nil)
        #expect(try Self.bytesOnDisk(request) == Self.file, "none of the bytes without a validator survive")
        #expect(events.first == .checkpoint(length: 0, validator: nil), "the cut back to zero is recorded first")
    }

    @Test("A 200 answer to a range request restarts from zero instead of splicing")
    func restartsOnFullAnswer() async throws {
        let server = try ScriptedHTTPServer(script: Self.fullResponse)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let request = try Self.request(server.url("/a.mp4"), in: folder.url, onDisk: 100_000)
        try Data([UInt8](repeating: 0xAA, count: 100_000)).write(to: request.partFile)
        let (result, events) = await Self.transfer(request)
        #expect(try result.get().length == Int64(Self.file.count))
        #expect(try Self.bytesOnDisk(request) == Self.file, "no byte of the old version survives")
        #expect(events.contains { if case .restartedFromZero = $0 { true } else { false } })
    }

    @Test("A 206 from a different version or offset restarts from zero")
    func restartsOnMismatchedPartialAnswer() async throws {
        for badField in ["ETag: \"v2\"", "Content-Range: bytes 99999-299999/300000"] {
            let server = try ScriptedHTTPServer { head, _ in
                if head.headerValue("Range") == nil { return Self.fullResponse(head, 0) }
                let fields = badField.hasPrefix("ETag")
                    ? [badField, "Content-Range: bytes 100000-299999/300000"] : ["ETag: \(Self.etag)", badField]
                return .response("206 Partial Content", fields, body: Array(Self.file[100_000...]))
            }
            defer { server.stop() }
            let folder = try TemporaryDirectory()
            let request = try Self.request(server.url("/a.mp4"), in: folder.url, onDisk: 100_000)
            let (result, _) = await Self.transfer(request)
            #expect(try result.get().length == Int64(Self.file.count), "\(badField)")
            #expect(try Self.bytesOnDisk(request) == Self.file)
            #expect(server.requests.count == 2)
            #expect(server.requests.last?.headerValue("Range") == nil)
        }
    }

    @Test("A 416 whose length is what is on disk means the file is complete")
    func completesOnSatisfied416() async throws {
        let server = try ScriptedHTTPServer { _, _ in
            .response("416 Range Not Satisfiable", ["ETag: \(Self.etag)", "Content-Range: bytes */\(Self.file.count)"])
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let request = try Self.request(server.url("/a.mp4"), in: folder.url, onDisk: Self.file.count)
        let (result, _) = await Self.transfer(request)
        #expect(try result.get().length == Int64(Self.file.count))
        #expect(server.requests.count == 1)
    }

    @Test("A body cut short is a retryable error, and its bytes are kept for the next attempt")
    func shortBodyIsRetryable() async throws {
        let server = try ScriptedHTTPServer { head, index in
            if index == 0 {
                var reply = Self.fullResponse(head, index)
                reply.bytes.removeLast(200_000)
                return reply
            }
            return Self.rangeResponse(head, index)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        var request = try Self.request(server.url("/a.mp4"), in: folder.url)
        let (first, events) = await Self.transfer(request)
        guard case let .failure(error) = first else { Issue.record("A short body must not complete"); return }
        #expect(error.kind == .connectionLost)
        #expect(error.isRetryable)
        guard case let .checkpoint(length, validator) = try #require(events.last) else {
            Issue.record("The last event should be a checkpoint"); return
        }
        #expect(length > 0 && length < Int64(Self.file.count))

        request.durableLength = length
        request.validator = validator
        let (second, _) = await Self.transfer(request)
        #expect(try second.get().length == Int64(Self.file.count))
        #expect(try Self.bytesOnDisk(request) == Self.file)
        #expect(server.requests.last?.headerValue("Range") == "bytes=\(length)-")
    }

    @Test("A file whose length differs from the declared size fails for good")
    func sizeMismatchFails() async throws {
        let server = try ScriptedHTTPServer(script: Self.fullResponse)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        var request = try Self.request(server.url("/a.mp4"), in: folder.url)
        request.expectedLength = 1234
        let (result, _) = await Self.transfer(request)
        guard case let .failure(error) = result else { Issue.record("A size mismatch must fail"); return }
        #expect(error.kind == .sizeMismatch(expected: 1234, actual: Int64(Self.file.count)))
        #expect(!error.isRetryable)
        #expect(error.description.contains("1234"))
    }

    @Test("Server statuses say whether to retry, and when")
    func reportsStatuses() async throws {
        let cases: [(String, [String], Bool, Duration?)] = [
            ("503 Service Unavailable", ["Retry-After: 7"], true, .seconds(7)),
            ("429 Too Many Requests", [], true, nil),
            ("404 Not Found", [], false, nil),
            ("403 Forbidden", [], false, nil),
        ]
        for (status, fields, retryable, retryAfter) in cases {
            let server = try ScriptedHTTPServer { _, _ in .response(status, fields) }
            defer { server.stop() }
            let folder = try TemporaryDirectory()
            let (result, _) = await Self.transfer(try Self.request(server.url("/a.mp4"), in: folder.url))
            guard case let .failure(error) = result else { Issue.record("\(status) must fail"); continue }
            #expect(error.isRetryable == retryable, "\(status)")
            #expect(error.retryAfter == retryAfter, "\(status)")
            #expect(error.context == .remote)
        }
    }

    @Test("A 401 asks for credentials; the answered credential is sent")
    func handlesAuthentication() async throws {
        let server = try ScriptedHTTPServer { head, index in
            head.headerValue("Authorization") == "Basic dXNlcjpzZWNyZXQ="
                ? Self.fullResponse(head, index)
                : .response("401 Unauthorized", ["WWW-Authenticate: Basic realm=\"sessions\""])
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        var request = try Self.request(server.url("/protected/a.mp4"), in: folder.url)
        let (challenged, _) = await Self.transfer(request)
        guard case let .failure(error) = challenged else { Issue.record("A 401 must fail"); return }
        #expect(error.kind == .authenticationRequired(realm: "sessions"))

        request.credential = BasicCredential(user: "user", password: "secret")
        let (answered, _) = await Self.transfer(request)
        #expect(try answered.get().length == Int64(Self.file.count))
    }

    @Test("A permanent redirect is followed and reported")
    func followsRedirects() async throws {
        let server = try ScriptedHTTPServer { head, index in
            head.hasPrefix("GET /old.mp4") ? .response("301 Moved Permanently", ["Location: /new.mp4"]) : Self.fullResponse(head, index)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let (result, events) = await Self.transfer(try Self.request(server.url("/old.mp4"), in: folder.url))
        #expect(try result.get().finalURL == server.url("/new.mp4"))
        #expect(events.contains(.movedPermanently(to: server.url("/new.mp4"))))
    }

    @Test("Before the first launch, a redirect to a host outside the allow list fails with code 202")
    func redirectOutsideAllowList() async throws {
        let server = try ScriptedHTTPServer { head, index in
            head.hasPrefix("GET /old.mp4")
                ? .response("302 Found", ["Location: http://localhost:\(9)/elsewhere.mp4"]) : Self.fullResponse(head, index)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        var request = try Self.request(server.url("/old.mp4"), in: folder.url)
        request.allowedHosts = try DomainAllowList(["127.0.0.1"])
        let (result, _) = await Self.transfer(request)
        guard case let .failure(error) = result else { Issue.record("the redirect was followed"); return }
        #expect(error.kind == .disallowedHost("localhost"))
        #expect(error.wireFailure.domain == "BAErrorDomain" && error.wireFailure.code == 202)
        #expect(!error.isRetryable)
    }

    @Test("A chunked body is decoded into the file")
    func decodesChunkedBody() async throws {
        let server = try ScriptedHTTPServer { _, _ in
            var body: [UInt8] = []
            for start in stride(from: 0, to: Self.file.count, by: 70_000) {
                let chunk = Self.file[start..<min(start + 70_000, Self.file.count)]
                body += Array("\(String(chunk.count, radix: 16))\r\n".utf8) + chunk + [13, 10]
            }
            body += Array("0\r\n\r\n".utf8)
            return .response("200 OK", ["Transfer-Encoding: chunked", "ETag: \(Self.etag)"], body: body)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let request = try Self.request(server.url("/a.mp4"), in: folder.url)
        let (result, _) = await Self.transfer(request)
        #expect(try result.get().length == Int64(Self.file.count))
        #expect(try Self.bytesOnDisk(request) == Self.file)
    }

    @Test("A server that goes silent is dropped after the stall timeout")
    func dropsStalledServer() async throws {
        let server = try ScriptedHTTPServer { _, _ in
            var reply = ScriptedHTTPServer.Reply.response("200 OK", ["ETag: \(Self.etag)"], body: Array(Self.file.prefix(1000)), stallAfterwards: true)
            reply.bytes = Array(("HTTP/1.1 200 OK\r\nContent-Length: \(Self.file.count)\r\n\r\n").utf8) + Self.file.prefix(1000)
            return reply
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        var request = try Self.request(server.url("/a.mp4"), in: folder.url)
        request.stallTimeout = .seconds(1)
        let (result, events) = await Self.transfer(request)
        guard case let .failure(error) = result else { Issue.record("A stalled transfer must fail"); return }
        #expect(error.kind == .stalled)
        #expect(events.last == .checkpoint(length: 1000, validator: nil))
    }

    @Test("Nobody listening is a connectivity failure")
    func reportsConnectionRefused() async throws {
        let nobody = try RefusingPort()
        // Held to the end of the test, so no other test's server takes the port meanwhile.
        defer { withExtendedLifetime(nobody) {} }
        let port = nobody.port
        let folder = try TemporaryDirectory()
        let (result, _) = await Self.transfer(try Self.request(URL(string: "http://127.0.0.1:\(port)/a.mp4")!, in: folder.url))
        guard case let .failure(error) = result else { Issue.record("A refused connection must fail"); return }
        #expect(error.isConnectivityFailure)
        #expect(error.context == .transport)
    }

    @Test("A limited transfer is paced, and lifting the limit speeds it up at once")
    func pacesAndLiftsBandwidthLimit() async throws {
        let server = try ScriptedHTTPServer(script: Self.fullResponse)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let request = try Self.request(server.url("/a.mp4"), in: folder.url)
        let control = TransferControl(bytesPerSecond: 1_000)
        async let outcome = Self.transfer(request, control: control)
        // At 1 KB/s the 300 KB file would take five minutes, five times the suite's time limit; lift
        // the limit once a checkpoint shows bytes arriving, and finishing at all shows the rest came
        // at full speed.
        do {
            try await poll(until: { (try? Data(contentsOf: request.partFile).count).map { $0 > 0 } ?? false },
                           "the first bytes on disk")
        } catch {
            // The transfer ignores task cancellation: without this, a failed wait would leave it
            // pacing for five minutes past the test.
            control.cancel()
            throw error
        }
        control.bytesPerSecond = nil
        let (result, _) = await outcome
        #expect(try result.get().length == Int64(Self.file.count))
    }

    @Test("Cancelling stops a transfer promptly, keeping its bytes")
    func cancels() async throws {
        let server = try ScriptedHTTPServer(script: Self.fullResponse)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let request = try Self.request(server.url("/a.mp4"), in: folder.url)
        // Paced to take half a minute: the cancel comes once the first bytes are on disk, and a test
        // task that a machine busy with two suites leaves unscheduled for seconds must still find
        // the transfer running (at 50 KB/s it had ended once, six seconds after its first bytes).
        let control = TransferControl(bytesPerSecond: 10_000)
        async let outcome = Self.transfer(request, control: control)
        try? await poll(until: { (try? Data(contentsOf: request.partFile).count).map { $0 > 0 } ?? false },
                        "the first bytes on disk")
        control.cancel()
        #expect((try? Data(contentsOf: request.partFile).count).map { $0 > 0 } == true, "no bytes arrived before the cancel")
        let (result, events) = await outcome
        guard case let .failure(error) = result else { Issue.record("A cancelled transfer must not complete"); return }
        #expect(error.kind == .cancelled)
        guard case let .checkpoint(length, _) = try #require(events.last) else { Issue.record("No final checkpoint"); return }
        #expect(Int64(try Self.bytesOnDisk(request).count) >= length)
    }
}
