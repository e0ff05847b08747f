/*
Abstract:
Tests that certificates and keys made by the openssl tool, as users bring them, are read every time.
*/

import Foundation
import TestSupport
import Testing
import TLS

@Suite("Certificates made by openssl", .enabled(if: OpenSSLTool.isInstalled))
struct OpenSSLMadeCertificateTests {
    @Test("CAs from openssl req -x509, with and without extensions, are read a hundred times in a row")
    func readsOpenSSLCertificateAuthorities() async throws {
        let folder = try TemporaryDirectory()
        for authority in OpenSSLTool.Authority.allCases {
            let files = try await OpenSSLTool.makeAuthority(authority, in: folder.url)
            // The text is read from the file, as `trust add` reads it.
            let pem = try String(contentsOf: files.certificate, encoding: .utf8)
            for attempt in 1...100 {
                let summary = try CertificateSummary(pem: pem)
                #expect(summary.subject.contains("CN=\(authority.commonName)"), "attempt \(attempt)")
                #expect(summary.isCA, "attempt \(attempt)")
            }
        }
    }

    @Test("A server certificate signed from openssl's CA files is issued and chains to that CA")
    func issuesFromOpenSSLAuthority() async throws {
        let folder = try TemporaryDirectory()
        let files = try await OpenSSLTool.makeAuthority(.rsaWithExtensions, in: folder.url)
        let authority = IssuedCertificate(
            certificatePEM: try String(contentsOf: files.certificate, encoding: .utf8),
            privateKeyPEM: try String(contentsOf: files.key, encoding: .utf8))
        for _ in 1...20 {
            let server = try CertificateIssuer.server(names: ["localhost"], issuer: authority)
            #expect(try CertificateSummary(pem: server.certificatePEM).issuer == CertificateSummary(pem: authority.certificatePEM).subject)
        }
    }
}
