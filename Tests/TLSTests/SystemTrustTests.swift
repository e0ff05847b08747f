/*
Abstract:
Tests of the system's trust: CAs looked up by their subject's hash in a folder, and how such a folder is recognised.
*/

import COpenSSL
import Foundation
import TestSupport
import Testing
@testable import TLS

@Suite("The system's CAs")
struct SystemTrustTests {
    let folder: TemporaryDirectory
    let authority: LocalCertificateAuthority

    init() throws {
        folder = try TemporaryDirectory()
        authority = try LocalCertificateAuthority(directory: folder.url.appending(path: "ca"))
    }

    /// A folder holding the local CA's certificate under `name`, or under its subject's hash.
    func systemFolder(naming name: String? = nil) throws -> String {
        let pem = try String(contentsOf: authority.caCertificate, encoding: .utf8)
        let certificate = try CertificateIssuer.loadCertificate(pem: pem)
        defer { X509_free(certificate) }
        let hashed = String(format: "%08lx.0", X509_subject_name_hash(certificate))
        let system = folder.url.appending(path: "system-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
        try pem.write(to: system.appending(path: name ?? hashed), atomically: true, encoding: .utf8)
        return system.path
    }

    func handshake(trustingSystemFolder system: String) throws -> TLSPair.Outcome {
        let client = try TLSClientContext()
        SystemTrust.add(to: client.context, hashedFolder: system)
        let server = try TLSServerContext(certificateChain: authority.serverCertificate, privateKey: authority.serverKey)
        return TLSPair.handshake(server: server, client: client, host: "localhost")
    }

    @Test("A CA kept in the system's folder under its subject's hash is trusted when a chain names it")
    func hashedCAIsTrusted() throws {
        let outcome = try handshake(trustingSystemFolder: try systemFolder())
        #expect(throws: Never.self) { try outcome.client.get() }
        close(outcome.descriptors.0)
        close(outcome.descriptors.1)
    }

    @Test("The same CA under another name is not found: the folder is looked up by hash, not read whole")
    func unhashedCAIsNotFound() throws {
        let outcome = try handshake(trustingSystemFolder: try systemFolder(naming: "local-ca.pem"))
        guard case let .failure(error) = outcome.client, case let .certificate(problem) = error.kind else {
            Issue.record("the handshake succeeded or failed without a certificate problem: \(outcome.client)")
            return
        }
        #expect(problem == .untrustedIssuer)
        close(outcome.descriptors.0)
        close(outcome.descriptors.1)
    }

    @Test("Hashed names are eight lowercase hex digits, a dot and a number", arguments: [
        ("5ad8a5d6.0", true), ("002c0b4f.1", true), ("5ad8a5d6.10", true),
        ("5AD8A5D6.0", false), ("5ad8a5d.0", false), ("5ad8a5d6.", false), ("5ad8a5d6.r0", false),
        ("ca-certificates.crt", false), ("5ad8a5d6.0.pem", false), ("", false),
    ])
    func hashedNames(name: String, isHashed: Bool) {
        #expect(SystemTrust.isHashedName(name) == isHashed)
    }

    @Test("A folder counts as hashed once it holds one hashed name; a bundle alone or no folder does not")
    func hashedFolders() throws {
        let bundleOnly = folder.url.appending(path: "bundle-only")
        try FileManager.default.createDirectory(at: bundleOnly, withIntermediateDirectories: true)
        try Data("bundle".utf8).write(to: bundleOnly.appending(path: "ca-certificates.crt"))
        #expect(!SystemTrust.containsHashedNames(bundleOnly.path))
        #expect(!SystemTrust.containsHashedNames(folder.url.appending(path: "missing").path))
        #expect(SystemTrust.containsHashedNames(try systemFolder()))
    }

    @Test("Paths are the same file through links, and a missing path only as itself")
    func sameFiles() throws {
        let target = folder.url.appending(path: "bundle.crt")
        try Data("bundle".utf8).write(to: target)
        let link = folder.url.appending(path: "cert.pem")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(SystemTrust.isSameFile(link.path, target.path))
        #expect(!SystemTrust.isSameFile(link.path, folder.url.appending(path: "other.crt").path))
        #expect(SystemTrust.isSameFile("/nonexistent/cert.pem", "/nonexistent/cert.pem"))
        #expect(!SystemTrust.isSameFile("/nonexistent/cert.pem", target.path))
    }
}
