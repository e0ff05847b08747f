/*
Abstract:
End-to-end: a server certificate that is expired, not yet valid or for another host fails the download at once, saying why.
*/

import Foundation
import Testing
import TestSupport
import TLS

@Suite("Refuse a bad server certificate", .serialized, .timeLimit(.minutes(2)))
struct CertificateFailureTests {
    /// A certificate the device's trusted CA signed, wrong in one way.
    struct Case: Sendable, CustomTestStringConvertible {
        var names: [String]
        var notBefore: Int64
        var notAfter: Int64
        var reason: String
        var testDescription: String { reason }
    }

    static let cases = [
        Case(names: ["127.0.0.1", "localhost"], notBefore: -7200, notAfter: -3600, reason: "expired"),
        Case(names: ["127.0.0.1", "localhost"], notBefore: 3600, notAfter: 7200, reason: "not yet valid"),
        Case(names: ["cdn.example.com"], notBefore: -3600, notAfter: 3600, reason: "name mismatch"),
    ]

    @Test("The download fails at once with certificate, the reason and the host; nothing is fetched", arguments: cases)
    func refused(_ wrong: Case) async throws {
        let scenario = try Scenario()
        let tls = try TemporaryDirectory(prefix: "e2e-bad-cert")
        let authority = try CertificateIssuer.certificateAuthority(commonName: "Bad Certificate Test CA")
        let server = try CertificateIssuer.server(
            names: wrong.names, issuer: authority, notBefore: wrong.notBefore, notAfter: wrong.notAfter)
        let files = [("ca.pem", authority.certificatePEM), ("server.pem", server.certificatePEM), ("server.key", server.privateKeyPEM)]
        for (name, text) in files { try Data(text.utf8).write(to: tls.appending(name)) }

        try await withAssetServer(arguments: [
            "--tls-cert", tls.appending("server.pem").path, "--tls-key", tls.appending("server.key").path,
            "--access-log", scenario.accessLog.path,
        ]) { assets in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                // The CA is trusted: only the certificate itself is wrong.
                let trusted = try await scenario.runTool(["trust", "add", tls.appending("ca.pem").path])
                #expect(trusted.status == .exited(0), "\(trusted.standardError)")
                let file = try CatalogFile.all(in: assets.catalogURL)[0]
                let output = scenario.outputFolder.appendingPathComponent("session.mp4")
                let result = try await scenario.runTool(["download", assets.url(file.path).absoluteString, "--output", output.path])
                // Failing at all shows it was not retried: a background download retries without end.
                #expect(result.status == .exited(1))
                #expect(result.standardError.contains("certificate"), "\(result.standardError)")
                #expect(result.standardError.contains(wrong.reason), "\(result.standardError)")
                #expect(result.standardError.contains("127.0.0.1"), "\(result.standardError)")
                #expect(try scenario.accessEntries(for: file.path).isEmpty)
                #expect(!FileManager.default.fileExists(atPath: output.path))
            }
        }
    }
}
