/*
Abstract:
Tests that a server sending too slowly is dropped like a stall, and that the service's own pacing is never blamed on it.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing
import TestSupport

@Suite("A server that sends too slowly", .timeLimit(.minutes(3)))
struct LowSpeedTests {
    static let second: UInt64 = 1_000_000_000

    @Test("A window below the rate fails; a window above it starts the next")
    func windows() throws {
        var watch = LowSpeedWatch(bytesPerSecond: 1000, window: .seconds(2), bytes: 0, now: 0)
        try watch.check(bytes: 500, now: Self.second, paced: 0)  // the window has not passed yet
        try watch.check(bytes: 2500, now: 2 * Self.second, paced: 0)  // 1250 B/s over the window
        #expect(throws: TransferError.self) { try watch.check(bytes: 3000, now: 4 * Self.second, paced: 0) }  // 250 B/s
    }

    @Test("Time the transfer's own pacing slept does not count against the server")
    func pacingIsNotTheServersFault() throws {
        var watch = LowSpeedWatch(bytesPerSecond: 1000, window: .seconds(2), bytes: 0, now: 0)
        // 600 bytes in 2 s, but 1.5 s of it was the bandwidth limit: 1200 B/s while waiting for the server.
        try watch.check(bytes: 600, now: 2 * Self.second, paced: 3 * Self.second / 2)
        var slow = LowSpeedWatch(bytesPerSecond: 1000, window: .seconds(2), bytes: 0, now: 0)
        #expect(throws: TransferError.self) { try slow.check(bytes: 600, now: 2 * Self.second, paced: 0) }
    }

    @Test("A limit of 0 turns the watch off")
    func off() throws {
        var watch = LowSpeedWatch(bytesPerSecond: 0, window: .seconds(1), bytes: 0, now: 0)
        try watch.check(bytes: 0, now: 10 * Self.second, paced: 0)
    }

    @Test("config.json sets the minimum rate and its window: 1 KiB/s over 30 s unless told otherwise, 0 turns it off")
    func knobs() throws {
        #expect(ServiceConfiguration().lowSpeedLimit == 1024 && ServiceConfiguration().lowSpeedTime == 30)
        let configuration = try ServiceConfigurationTests.load(#"{"lowSpeedLimit": 0, "lowSpeedTime": 5}"#)
        #expect(configuration.lowSpeedLimit == 0 && configuration.lowSpeedTime == 5)
        #expect(throws: ConfigurationError.self) { try ServiceConfigurationTests.load(#"{"lowSpeedTime": 0}"#) }
        #expect(throws: ConfigurationError.self) { try ServiceConfigurationTests.load(#"{"lowSpeedLimit": -1}"#) }
    }

    @Test("A server dripping its body is dropped after the window, as a retryable failure that keeps the bytes")
    func drippingServer() async throws {
        // The head at once, then 20 bytes a second: never silent for the stall timeout.
        let server = try ScriptedHTTPServer { _, _ in .dripping(HTTPTransferTests.file, everyMilliseconds: 50) }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        var request = try HTTPTransferTests.request(server.url("/a.mp4"), in: folder.url)
        request.stallTimeout = .seconds(2)
        request.lowSpeedLimit = 1000
        request.lowSpeedTime = .milliseconds(600)
        let (result, events) = await HTTPTransferTests.transfer(request)
        guard case let .failure(error) = result else { Issue.record("the dripping transfer completed"); return }
        #expect(error.kind == .tooSlow, "\(error)")
        #expect(error.isRetryable)
        #expect(error.wireFailure.code == -1001)
        #expect(error.description.contains("lowSpeedLimit"), "\(error)")
        guard case let .checkpoint(length, _) = try #require(events.last) else { Issue.record("no final checkpoint"); return }
        #expect(length > 0, "the bytes that did arrive are kept for the next attempt")
    }

    @Test("A transfer the service paces below the rate is not dropped")
    func pacedTransferCompletes() async throws {
        let body = [UInt8](HTTPTransferTests.file.prefix(1_500))
        let server = try ScriptedHTTPServer { _, _ in .response("200 OK", [], body: body) }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        var request = try HTTPTransferTests.request(server.url("/a.mp4"), in: folder.url)
        request.expectedLength = Int64(body.count)
        request.lowSpeedLimit = 1024
        request.lowSpeedTime = .milliseconds(500)
        // 600 bytes a second: 2.5 s for the body, under the minimum rate, all of it the service's doing.
        let (result, _) = await HTTPTransferTests.transfer(request, control: TransferControl(bytesPerSecond: 600))
        #expect(try result.get().length == Int64(body.count))
    }
}
