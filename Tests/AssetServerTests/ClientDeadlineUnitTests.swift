/*
Abstract:
In-process tests of the idle timeout and the request-head deadline, on a clock the test advances.
*/

@testable import AssetServer
import Foundation
import Testing
import TestSupport

@Suite("Client deadlines on the server's clock")
struct ClientDeadlineUnitTests {
    static let timeouts = AssetServer.Timeouts(idle: .seconds(15), requestHead: .seconds(10))

    @Test("A connection that never sends a byte is closed once the idle timeout passes, not before")
    func silentConnectionIsClosedAtTheIdleTimeout() async throws {
        let server = try ManualClockServer(timeouts: Self.timeouts)
        defer { server.stop() }
        let silent = try RawHTTPClient(port: server.port)
        try await server.waitForDeadline(.seconds(15), "the first byte")

        server.clock.advance(by: .seconds(14))
        #expect(try await server.fetchManifest().statusCode == 200)
        #expect(server.clock.pendingDeadlines.contains(.seconds(1)), "14 s in, the connection is still waited for")

        server.clock.advance(by: .seconds(2))
        #expect(await silent.waitForClose(), "the connection stayed open past its idle timeout")
    }

    @Test("A client sending its head a piece at a time is answered 408 at the head's deadline, however often it sends")
    func slowHeadIsCutAtTheDeadline() async throws {
        let server = try ManualClockServer(timeouts: Self.timeouts)
        defer { server.stop() }
        let slow = try RawHTTPClient(port: server.port)
        // The deadline runs from the first byte of the head: 10 s, whatever arrives after it.
        try await slow.send("GET /manifest.json HTTP/1.1\r\n")
        try await server.waitForDeadline(.seconds(10), "the rest of the head")
        for piece in ["Host: 127.0.0.1\r\n", "X-Padding: p\r\n"] {
            server.clock.advance(by: .seconds(4))
            let waits = server.clock.waitsBegun
            try await slow.send(piece)
            // It read the piece and waits again, still for the same deadline: no read restarts it.
            try await poll(until: { server.clock.waitsBegun > waits }, "the server to read")
            #expect(try await server.fetchManifest().statusCode == 200, "another client waited behind the slow one")
        }
        #expect(server.clock.pendingDeadlines.contains(.seconds(2)), "8 s in, the head's deadline is 2 s away")

        server.clock.advance(by: .seconds(3))
        let response = try await slow.readResponse()
        #expect(response.statusCode == 408)
        #expect(await slow.waitForClose(), "the connection stayed open after its 408")
    }

    @Test("A head completed before its deadline is answered, however long it took within it")
    func headWithinTheDeadlineIsAnswered() async throws {
        let server = try ManualClockServer(timeouts: Self.timeouts)
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        try await client.send("GET /manifest.json HTTP/1.1\r\n")
        try await server.waitForDeadline(.seconds(10), "the rest of the head")
        server.clock.advance(by: .seconds(9))
        try await client.send("Host: 127.0.0.1\r\n\r\n")
        #expect(try await client.readResponse().statusCode == 200)
    }
}
