/*
Abstract:
In-process test that a client which stops reading a body is dropped after the send stall timeout, while others are served.
*/

@testable import AssetServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

@Suite("A body nobody reads")
struct SendStallUnitTests {
    @Test("A client that stops reading is dropped once the stall timeout passes without progress")
    func stalledReaderIsDropped() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "asset-server-stall-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // More than the two sockets' buffers hold on loopback, so the sends must stop.
        let catalog = try Catalog.prepare(at: folder, sessionCount: 1, sessionSize: 32 << 20)
        let timeouts = AssetServer.Timeouts(sendStall: .seconds(1))
        let server = AssetServer(configuration: .init(port: 0, catalogDirectory: folder, timeouts: timeouts))
        let port = try server.start()
        defer { server.shutdown() }
        let session = try #require(catalog.manifest.sessions.first)

        let client = try RawHTTPClient(port: port)
        try await client.send("GET /\(session.url.relativeString) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        // The behaviour under test is what the server does after this much silence from the client.
        try await Task.sleep(for: .seconds(3))

        // Another client is served meanwhile.
        let other = try #require(URL(string: "http://127.0.0.1:\(port)/manifest.json"))
        #expect((try await URLSession.shared.data(from: other).1 as? HTTPURLResponse)?.statusCode == 200)

        // Reading now finds the bytes that were in flight, then the end: the server gave up. (A
        // server that kept the connection would send the whole body and leave it open, and the
        // read would time out waiting for the close.)
        let received = try await client.readUntilClosed()
        #expect(received.count < session.fileSize, "the whole body arrived; the server never stopped")
    }
}
