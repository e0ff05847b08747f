/*
Abstract:
Tests of certificate issuing and of the local CA's files.
*/

import Foundation
import TestSupport
import Testing
import TLS

@Suite("Certificates")
struct CertificateTests {
    @Test("The local CA is created once, reused, and its keys are readable by the owner only")
    func localAuthorityReused() throws {
        let folder = try TemporaryDirectory()
        let first = try LocalCertificateAuthority(directory: folder.url)
        let caPEM = try String(contentsOf: first.caCertificate, encoding: .utf8)
        let serverPEM = try String(contentsOf: first.serverCertificate, encoding: .utf8)
        let second = try LocalCertificateAuthority(directory: folder.url)
        #expect(try String(contentsOf: second.caCertificate, encoding: .utf8) == caPEM)
        #expect(try String(contentsOf: second.serverCertificate, encoding: .utf8) == serverPEM)
        for key in [first.caKey, first.serverKey] {
            let mode = try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test("A summary names subject and issuer, tells a CA apart, and fingerprints with SHA-256")
    func summary() throws {
        let ca = try CertificateIssuer.certificateAuthority(commonName: "Test CA")
        let server = try CertificateIssuer.server(names: ["localhost"], issuer: ca)
        let caSummary = try CertificateSummary(pem: ca.certificatePEM)
        let serverSummary = try CertificateSummary(pem: server.certificatePEM)
        #expect(caSummary.subject.contains("CN=Test CA"))
        #expect(caSummary.isCA)
        #expect(!serverSummary.isCA)
        #expect(serverSummary.issuer == caSummary.subject)
        #expect(caSummary.sha256.count == 64)
        #expect(caSummary.sha256 != serverSummary.sha256)
    }

    @Test("Text that is not a certificate is refused with a clear error")
    func notACertificate() {
        #expect(throws: TLSError.self) { try CertificateSummary(pem: "hello") }
        #expect(throws: TLSError.self) {
            try TLSClientContext(extraCAFiles: [URL(fileURLWithPath: "/nonexistent/ca.pem")])
        }
    }
}
