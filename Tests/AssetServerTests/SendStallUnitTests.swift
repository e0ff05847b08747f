/*
Abstract:
In-process test that a client which stops reading a body is dropped once the send stall timeout passes on the server's clock, while others are served.
*/

@testable import AssetServer
import Foundation
import Testing
import TestSupport

@Suite("A body nobody reads")
struct SendStallUnitTests {
    @Test("A client that stops reading is dropped once the stall timeout passes without progress, not before")
    func stalledReaderIsDropped() async throws {
        // Apart from the idle (15 s) and head (10 s) deadlines, so the wait for room is told apart.
        let stall = Duration.seconds(30)
        // More than the two sockets' buffers hold on loopback, so the sends must stop.
        let server = try ManualClockServer(timeouts: .init(sendStall: stall), sessionSize: 32 << 20)
        defer { server.stop() }
        let session = try #require(server.catalog.manifest.sessions.first)

        let client = try RawHTTPClient(port: server.port)
        try await client.send("GET /\(session.url.relativeString) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        // The buffers are full: the server waits for room until the stall deadline.
        try await server.waitForDeadline(stall, "room in the socket")

        server.clock.advance(by: stall - .seconds(1))
        // Another client is served meanwhile.
        #expect(try await server.fetchManifest().statusCode == 200)
        #expect(server.clock.pendingDeadlines.contains(.seconds(1)), "29 s in, the server still waits for room")

        server.clock.advance(by: .seconds(2))
        // Read only once the server has seen the deadline pass: room made sooner would be progress.
        try await poll(until: { server.clock.sleeperCount == 0 }, "the server to give up")
        // Reading now finds the bytes that were in flight, then the end: the server gave up. (A
        // server that kept the connection would send the whole body and leave it open, and the
        // read would time out waiting for the close.)
        let received = try await client.readUntilClosed()
        #expect(received.count < session.fileSize, "the whole body arrived; the server never stopped")
    }
}
