/*
Abstract:
In-process tests of starting and stopping an AssetServer, with one real request in between.
*/

@testable import AssetServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServerRuntime
import Testing

struct ServerLifecycleUnitTests {
    @Test("A server started on port 0 reports its port, serves the manifest, and stops")
    func startServeStop() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "asset-server-life-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = try Catalog.prepare(at: folder, sessionCount: 2, sessionSize: 1000)
        let server = AssetServer(configuration: .init(port: 0, catalogDirectory: folder), clock: SystemDeadlineClock())
        let port = try server.start()
        defer { server.shutdown() }
        #expect(port > 0)
        #expect(server.port == port)
        #expect(throws: AssetServerError.alreadyStarted) { try server.start() }

        let url = try #require(URL(string: "http://127.0.0.1:\(port)/manifest.json"))
        let (data, response) = try await URLSession.shared.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(data == (try catalog.manifest.encoded()))

        server.shutdown()
        #expect(server.port == nil)
        server.shutdown()  // a second call does nothing
    }

    @Test("A server refuses to start on a catalog folder that does not exist")
    func missingCatalog() {
        let folder = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)")
        let server = AssetServer(configuration: .init(port: 0, catalogDirectory: folder), clock: SystemDeadlineClock())
        #expect(throws: AssetServerError.self) { try server.start() }
        #expect(server.port == nil)
    }
}
