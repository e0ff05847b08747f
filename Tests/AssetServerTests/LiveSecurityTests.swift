/*
Abstract:
Live path confinement: traversal through .., encoded dots and slashes, NUL bytes, symlinks and absolute-form URIs.
*/

import Foundation
import Testing
import TestSupport

@Suite("Path confinement", .serialized, .timeLimit(.minutes(3)))
struct LiveSecurityTests {
    private static let secret = "TOP-SECRET-OUTSIDE-THE-CATALOG"

    /// Runs a server whose catalog sits next to a secret file: `<tmp>/catalog` and `<tmp>/secret.txt`.
    private func withCatalogBesideSecret(
        arguments: [String] = [],
        _ body: (AssetServerProcess, URL) async throws -> Void
    ) async throws {
        let folder = try TemporaryDirectory(prefix: "confinement")
        let catalog = folder.appending("catalog")
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        let secretURL = folder.appending("secret.txt")
        try Data(Self.secret.utf8).write(to: secretURL)
        try await withAssetServer(catalogURL: catalog, arguments: arguments) { server in
            try await body(server, secretURL)
        }
    }

    private func expectRefused(_ response: RawHTTPResponse, _ target: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect([400, 403, 404].contains(response.statusCode), "\(target) → \(response)", sourceLocation: sourceLocation)
        #expect(!response.bodyText.contains(Self.secret), "\(target) leaked the secret", sourceLocation: sourceLocation)
        #expect(!response.bodyText.contains("root:x:0:0"), "\(target) leaked /etc/passwd", sourceLocation: sourceLocation)
    }

    @Test(
        "Traversal out of the catalog is refused however it is spelled",
        arguments: [
            "/../secret.txt", "/sessions/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt",
            "/.%2e/secret.txt", "/%2e%2e%2fsecret.txt", "/..%2Fsecret.txt", "/sessions%2F..%2F..%2Fsecret.txt",
            "/..%5csecret.txt", "/%252e%252e/secret.txt", "/../../../../../../etc/passwd",
            "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd", "/sessions/..%00/secret.txt",
        ]
    )
    func traversalIsRefused(target: String) async throws {
        try await withCatalogBesideSecret { server, _ in
            let client = try RawHTTPClient(port: server.port)
            expectRefused(try await client.request("GET", target), target)
        }
    }

    @Test("A NUL byte in the path is refused", arguments: ["/manifest.json%00", "/manifest.json%00.mp4", "/%00"])
    func nulByteIsRefused(target: String) async throws {
        try await withAssetServer { server in
            let response = try await server.raw("GET", target)
            #expect([400, 403, 404].contains(response.statusCode), "\(target) → \(response)")
            #expect(try await server.raw("GET", "/manifest.json").statusCode == 200, "the server keeps serving")
        }
    }

    @Test("A symlink inside the catalog that points outside it is not followed")
    func symlinkOutOfCatalog() async throws {
        try await withCatalogBesideSecret { server, secretURL in
            let sessions = server.catalogURL.appendingPathComponent("sessions")
            try FileManager.default.createDirectory(at: sessions, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: sessions.appendingPathComponent("leak.mp4"), withDestinationURL: secretURL)
            try FileManager.default.createSymbolicLink(
                at: server.catalogURL.appendingPathComponent("passwd"), withDestinationURL: URL(fileURLWithPath: "/etc/passwd"))
            try FileManager.default.createSymbolicLink(
                at: server.catalogURL.appendingPathComponent("outside"), withDestinationURL: secretURL.deletingLastPathComponent())
            for target in ["/sessions/leak.mp4", "/passwd", "/outside/secret.txt"] {
                expectRefused(try await server.raw("GET", target), target)
                expectRefused(try await server.raw("GET", target, headers: ["Range": "bytes=0-5"]), target)
            }
        }
    }

    @Test("An absolute-form request target is served for paths inside the catalog")
    func absoluteFormInsideCatalog() async throws {
        try await withAssetServer { server in
            let response = try await server.raw("GET", "http://127.0.0.1:\(server.port)/manifest.json")
            #expect(response.statusCode == 200, "RFC 9112 §3.2.2: a server MUST accept the absolute-form. \(response)")
            #expect(response.body == (try server.fileBytes("/manifest.json")))
        }
    }

    @Test(
        "An absolute-form request target cannot climb out of the catalog",
        arguments: ["/../secret.txt", "/%2e%2e/secret.txt", "/sessions/../../secret.txt"]
    )
    func absoluteFormTraversal(path: String) async throws {
        try await withCatalogBesideSecret { server, _ in
            let target = "http://127.0.0.1:\(server.port)\(path)"
            expectRefused(try await server.raw("GET", target), target)
        }
    }

    @Test("Protected files stay protected through encoded and dotted paths when --auth is set")
    func protectedPathsCannotBeSidestepped() async throws {
        try await withAssetServer(arguments: ["--auth", "demo:secret"]) { server in
            try server.writeFile("/protected/bonus.mp4", Array(Self.secret.utf8))
            for target in ["/protected/bonus.mp4", "/%70rotected/bonus.mp4", "/sessions/../protected/bonus.mp4",
                           "/./protected/bonus.mp4", "//protected/bonus.mp4", "/protected%2Fbonus.mp4"] {
                let response = try await server.raw("GET", target)
                #expect(response.statusCode != 200, "\(target) → \(response)")
                #expect(!response.bodyText.contains(Self.secret), "\(target) leaked a protected file")
            }
        }
    }
}
