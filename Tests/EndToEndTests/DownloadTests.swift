/*
Abstract:
End-to-end: backgroundassets-debug downloads through the real service from the real asset server.
*/

import Foundation
import Testing
import TestSupport

@Suite("Download a file with backgroundassets-debug", .serialized, .timeLimit(.minutes(2)))
struct DownloadTests {
    @Test("Download a session and match the catalog's SHA-256")
    func downloadMatchesCatalog() async throws {
        let scenario = try Scenario()
        try await withAssetServer(sessionSize: 200_000, arguments: ["--access-log", scenario.accessLog.path]) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let file = try CatalogFile.all(in: server.catalogURL)[0]
                let output = scenario.outputFolder.appendingPathComponent("session.mp4")
                let result = try await scenario.runTool([
                    "download", server.url(file.path).absoluteString, "--output", output.path, "--size", String(file.size),
                ])
                #expect(result.status == .exited(0), "\(result.standardError)")
                #expect(try await sha256(of: output) == file.sha256)
                #expect(result.standardError.contains("Downloaded"))
                // The hand-over folder is left empty: the file was moved, not copied.
                let handOver = scenario.deviceRoot.appendingPathComponent(
                    "containers/group.com.example.backgroundassets-debug/Library/Caches/com.apple.BackgroundAssets")
                #expect(try FileManager.default.contentsOfDirectory(atPath: handOver.path).isEmpty)
            }
        }
    }

    @Test("A --size that differs from the server's fails with a message")
    func sizeMismatchFails() async throws {
        let scenario = try Scenario()
        try await withAssetServer(sessionSize: 65_536) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let file = try CatalogFile.all(in: server.catalogURL)[0]
                let output = scenario.outputFolder.appendingPathComponent("wrong-size.mp4")
                let result = try await scenario.runTool([
                    "download", server.url(file.path).absoluteString, "--output", output.path,
                    "--size", String(file.size + 1),
                ])
                #expect(result.status == .exited(1))
                #expect(result.standardError.contains("failed"), "\(result.standardError)")
                #expect(result.standardError.contains(String(file.size + 1)), "\(result.standardError)")
                #expect(!FileManager.default.fileExists(atPath: output.path))
            }
        }
    }

    @Test("A server that answers 503 twice is retried until the download succeeds")
    func serviceUnavailableIsRetried() async throws {
        let scenario = try Scenario()
        let catalog = try TemporaryDirectory(prefix: "e2e-catalog")
        // Generate the catalog first so the failing path is known before the server starts with --fail.
        let path = try await withAssetServer(catalogURL: catalog.url, sessionSize: 65_536) { server in
            try CatalogFile.all(in: server.catalogURL)[0].path
        }
        try await withAssetServer(
            catalogURL: catalog.url, sessionSize: 65_536,
            arguments: ["--fail", "\(path)=503x2", "--access-log", scenario.accessLog.path]
        ) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let file = try CatalogFile.all(in: server.catalogURL)[0]
                let output = scenario.outputFolder.appendingPathComponent("retried.mp4")
                let result = try await scenario.runTool(["download", server.url(path).absoluteString, "--output", output.path])
                #expect(result.status == .exited(0), "\(result.standardError)")
                #expect(try await sha256(of: output) == file.sha256)
                let statuses = try scenario.accessEntries(for: path).map(\.status)
                #expect(statuses == [503, 503, 200])
            }
        }
    }

    @Test("A 401 is answered with --credential, and fails without it")
    func authenticationChallenge() async throws {
        let scenario = try Scenario()
        let catalog = try TemporaryDirectory(prefix: "e2e-catalog")
        let protected = catalog.appending("protected")
        try FileManager.default.createDirectory(at: protected, withIntermediateDirectories: true)
        let content = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try content.write(to: protected.appendingPathComponent("secret.bin"))
        try await withAssetServer(catalogURL: catalog.url, sessionSize: 65_536, arguments: ["--auth", "ada:lovelace"]) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let url = server.url("/protected/secret.bin").absoluteString
                let withCredential = scenario.outputFolder.appendingPathComponent("secret.bin")
                let accepted = try await scenario.runTool([
                    "download", url, "--output", withCredential.path, "--credential", "ada:lovelace",
                ])
                #expect(accepted.status == .exited(0), "\(accepted.standardError)")
                #expect(try Data(contentsOf: withCredential) == content)

                let without = scenario.outputFolder.appendingPathComponent("refused.bin")
                let refused = try await scenario.runTool(["download", url, "--output", without.path])
                #expect(refused.status == .exited(1))
                #expect(refused.standardError.contains("no --credential was given"), "\(refused.standardError)")
                #expect(refused.standardError.contains("failed"), "\(refused.standardError)")
                #expect(!FileManager.default.fileExists(atPath: without.path))
            }
        }
    }
}
