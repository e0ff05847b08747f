/*
Abstract:
End-to-end over https: the real service downloads from asset-server --tls, trusting its CA only after trust add.
*/

import Foundation
import Testing
import TestSupport

@Suite("Download over https with a device-trusted CA", .serialized, .timeLimit(.minutes(2)))
struct HTTPSDownloadTests {
    @Test("An untrusted CA fails at once with the certificate's reason; after trust add the download succeeds")
    func untrustedThenTrusted() async throws {
        let scenario = try Scenario()
        let tls = try TemporaryDirectory(prefix: "e2e-tls")
        try await withAssetServer(sessionSize: 200_000, arguments: ["--tls", "--tls-dir", tls.url.path,
                                                                   "--access-log", scenario.accessLog.path]) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let file = try CatalogFile.all(in: server.catalogURL)[0]
                let output = scenario.outputFolder.appendingPathComponent("session.mp4")
                let url = server.url(file.path).absoluteString
                #expect(url.hasPrefix("https://"))

                let refused = try await scenario.runTool(["download", url, "--output", output.path])
                // Failing at all shows it was not retried: a background download retries without end.
                #expect(refused.status == .exited(1))
                #expect(refused.standardError.contains("certificate"), "\(refused.standardError)")
                #expect(refused.standardError.contains("untrusted issuer"), "\(refused.standardError)")
                #expect(refused.standardError.contains("127.0.0.1"), "\(refused.standardError)")
                #expect(try scenario.accessEntries(for: file.path).isEmpty)

                let trusted = try await scenario.runTool(["trust", "add", tls.url.appending(path: "ca.pem").path])
                #expect(trusted.status == .exited(0), "\(trusted.standardError)")
                let listed = try await scenario.runTool(["trust", "list"])
                #expect(listed.standardOutput.contains("Background Assets Local CA"))

                let result = try await scenario.runTool(["download", url, "--output", output.path, "--size", String(file.size)])
                #expect(result.status == .exited(0), "\(result.standardError)")
                #expect(try await sha256(of: output) == file.sha256)
            }
        }
    }

    @Test("A download cut by --drop-after resumes over TLS with a Range request")
    func resumesOverTLS() async throws {
        let scenario = try Scenario()
        let tls = try TemporaryDirectory(prefix: "e2e-tls")
        try await withAssetServer(sessionSize: 400_000, arguments: ["--tls", "--tls-dir", tls.url.path, "--drop-after", "150000",
                                                                   "--access-log", scenario.accessLog.path]) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let trusted = try await scenario.runTool(["trust", "add", tls.url.appending(path: "ca.pem").path])
                #expect(trusted.status == .exited(0), "\(trusted.standardError)")
                let file = try CatalogFile.all(in: server.catalogURL)[0]
                let output = scenario.outputFolder.appendingPathComponent("resumed.mp4")
                let result = try await scenario.runTool(["download", server.url(file.path).absoluteString, "--output", output.path])
                #expect(result.status == .exited(0), "\(result.standardError)")
                #expect(try await sha256(of: output) == file.sha256)
                let ranges = try scenario.accessEntries(for: file.path).compactMap(\.range)
                #expect(ranges.first?.hasPrefix("bytes=") == true, "the second request resumed: \(ranges)")
            }
        }
    }
}
