/*
Abstract:
End-to-end: a user's own CA and server certificate, made with the openssl tool, work with trust add and asset-server.
*/

import Foundation
import Testing
import TestSupport

@Suite("A CA and certificates made with openssl", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: OpenSSLTool.isInstalled))
struct OpenSSLCertificateTests {
    // Twenty processes for each CA, not a hundred: two hundred launches took over the suite's two
    // minutes on a busy machine. The parser that once read freed bytes reads each CA a hundred times
    // in a row in OpenSSLMadeCertificateTests, in process; these runs show the command takes them.
    @Test("trust add accepts CAs from openssl req -x509, with and without extensions, twenty times in a row")
    func trustAddAcceptsOpenSSLAuthorities() async throws {
        let scenario = try Scenario()
        for authority in OpenSSLTool.Authority.allCases {
            let files = try await OpenSSLTool.makeAuthority(authority, in: scenario.folder.url)
            for attempt in 1...20 {
                let added = try await scenario.runTool(["trust", "add", files.certificate.path])
                #expect(added.status == .exited(0), "attempt \(attempt): \(added.standardError)")
                guard added.status == .exited(0) else { break }
            }
            let listed = try await scenario.runTool(["trust", "list"])
            #expect(listed.standardOutput.contains(authority.commonName), "\(listed.standardOutput)")
        }
    }

    @Test("asset-server serves https with --tls-cert and --tls-key from openssl, and the service downloads from it")
    func assetServerWithOpenSSLFiles() async throws {
        let scenario = try Scenario()
        let authority = try await OpenSSLTool.makeAuthority(.rsaWithExtensions, in: scenario.folder.url)
        let server = try await OpenSSLTool.makeServer(names: ["localhost", "127.0.0.1"], signedBy: authority, in: scenario.folder.url)
        let arguments = ["--tls-cert", server.certificate.path, "--tls-key", server.key.path]
        try await withAssetServer(sessionSize: 200_000, arguments: arguments) { assets in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let trusted = try await scenario.runTool(["trust", "add", authority.certificate.path])
                #expect(trusted.status == .exited(0), "\(trusted.standardError)")
                let file = try CatalogFile.all(in: assets.catalogURL)[0]
                let url = assets.url(file.path).absoluteString
                #expect(url.hasPrefix("https://"))
                let output = scenario.outputFolder.appendingPathComponent("session.mp4")
                let result = try await scenario.runTool(["download", url, "--output", output.path, "--size", String(file.size)])
                #expect(result.status == .exited(0), "\(result.standardError)")
                #expect(try await sha256(of: output) == file.sha256)
            }
        }
    }
}
