/*
Abstract:
A local CA and a server certificate for this machine, created once in a folder and reused afterwards.
*/

import DevicePlatform
import Foundation

/// The files of a local CA and of the server certificate it issued for localhost, 127.0.0.1 and ::1.
///
/// Like the local test server Apple ships for Background Assets, the CA is the developer's to
/// install on a device (here: `backgroundassets-debug trust add`); the machine's trust store is
/// never touched. Private keys are created with mode 0600.
public struct LocalCertificateAuthority: Sendable {
    /// The folder holding the files.
    public let directory: URL

    /// The CA's certificate, the file a device trusts.
    public var caCertificate: URL { directory.appending(path: "ca.pem") }
    /// The CA's private key.
    public var caKey: URL { directory.appending(path: "ca-key.pem") }
    /// The server's certificate.
    public var serverCertificate: URL { directory.appending(path: "server.pem") }
    /// The server's private key.
    public var serverKey: URL { directory.appending(path: "server-key.pem") }

    /// The names the server certificate is issued for.
    public static let serverNames = ["localhost", "127.0.0.1", "::1"]

    /// Opens the CA in `directory`, creating the CA and the server certificate if they are missing.
    /// - Throws: ``TLSError`` of kind `.configuration` when the folder cannot be written.
    public init(directory: URL) throws(TLSError) {
        self.directory = directory
        let files = FileManager.default
        do {
            try files.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw TLSError(.configuration, "could not create \(directory.path): \(error.localizedDescription)")
        }
        if !files.fileExists(atPath: caCertificate.path) || !files.fileExists(atPath: caKey.path) {
            let ca = try CertificateIssuer.certificateAuthority(commonName: "Background Assets Local CA")
            try Self.write(ca.privateKeyPEM, to: caKey, mode: 0o600)
            try Self.write(ca.certificatePEM, to: caCertificate, mode: 0o644)
            unlink(serverCertificate.path)
        }
        if !files.fileExists(atPath: serverCertificate.path) || !files.fileExists(atPath: serverKey.path) {
            let ca = IssuedCertificate(certificatePEM: try Self.read(caCertificate), privateKeyPEM: try Self.read(caKey))
            let server = try CertificateIssuer.server(names: Self.serverNames, issuer: ca)
            try Self.write(server.privateKeyPEM, to: serverKey, mode: 0o600)
            try Self.write(server.certificatePEM, to: serverCertificate, mode: 0o644)
        }
    }

    static func read(_ file: URL) throws(TLSError) -> String {
        do { return try String(contentsOf: file, encoding: .utf8) } catch {
            throw TLSError(.configuration, "could not read \(file.path): \(error.localizedDescription)")
        }
    }

    /// Writes a certificate or key whole, with its mode from the first byte, so a key is never readable by others.
    static func write(_ text: String, to file: URL, mode: mode_t) throws(TLSError) {
        if let reason = AtomicFileWriter.write(Data(text.utf8), to: file, permissions: mode) {
            throw TLSError(.configuration, "could not write \(file.path): \(reason)")
        }
    }
}
