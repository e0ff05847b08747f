/*
Abstract:
Certificates and keys made by the openssl command-line tool, the way users make their own CA and server files.
*/

import Foundation

/// Runs `openssl` to make the files a user brings: a CA from `openssl req -x509`, and a server
/// certificate it signs. These differ from what the `TLS` module issues (RSA keys, PKCS #8, the
/// tool's own extensions or none), which is the point of testing with them.
public enum OpenSSLTool {
    /// Whether the `openssl` tool is on `PATH`.
    public static var isInstalled: Bool { (try? locateExecutable("openssl")) != nil }

    /// The kinds of CA users make.
    public enum Authority: CaseIterable, Sendable {
        /// `openssl req -x509 -newkey rsa:2048` with the tool's default configuration: basicConstraints
        /// CA:TRUE, subject and authority key identifiers.
        case rsaWithExtensions
        /// An EC P-256 CA with no X.509v3 extension at all (an empty request configuration).
        case ecWithoutExtensions

        /// The CA's common name.
        public var commonName: String {
            switch self {
            case .rsaWithExtensions: "OpenSSL RSA Test CA"
            case .ecWithoutExtensions: "OpenSSL EC Test CA"
            }
        }
    }

    /// A certificate file and its key file.
    public struct Files: Sendable {
        public var certificate: URL
        public var key: URL
    }

    /// Makes a CA with `openssl req -x509` in `folder`.
    /// - Throws: `TestSupportError` with openssl's output when it fails.
    public static func makeAuthority(_ authority: Authority, in folder: URL) async throws -> Files {
        let name = authority == .rsaWithExtensions ? "rsa-ca" : "ec-ca"
        let files = Files(certificate: folder.appending(path: "\(name).pem"), key: folder.appending(path: "\(name)-key.pem"))
        var arguments = ["req", "-x509", "-nodes", "-days", "30", "-subj", "/CN=\(authority.commonName)",
                         "-keyout", files.key.path, "-out", files.certificate.path]
        switch authority {
        case .rsaWithExtensions:
            arguments += ["-newkey", "rsa:2048"]
        case .ecWithoutExtensions:
            // A configuration with no extension section: the certificate carries none.
            let configuration = folder.appending(path: "empty-req.cnf")
            try Data("[req]\ndistinguished_name = dn\n[dn]\n".utf8).write(to: configuration)
            arguments += ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-config", configuration.path]
        }
        try await run(arguments)
        return files
    }

    /// Makes a server certificate for `names` (DNS names and IP addresses), signed by `authority`.
    /// - Throws: `TestSupportError` with openssl's output when it fails.
    public static func makeServer(names: [String], signedBy authority: Files, in folder: URL) async throws -> Files {
        let files = Files(certificate: folder.appending(path: "server.pem"), key: folder.appending(path: "server-key.pem"))
        let request = folder.appending(path: "server.csr")
        let extensions = folder.appending(path: "server.ext")
        let altNames = names.map { $0.contains(where: \.isLetter) ? "DNS:\($0)" : "IP:\($0)" }.joined(separator: ",")
        try Data("subjectAltName = \(altNames)\nextendedKeyUsage = serverAuth\n".utf8).write(to: extensions)
        try await run(["req", "-new", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=\(names.first ?? "localhost")",
                       "-keyout", files.key.path, "-out", request.path])
        try await run(["x509", "-req", "-in", request.path, "-CA", authority.certificate.path, "-CAkey", authority.key.path,
                       "-CAcreateserial", "-days", "30", "-extfile", extensions.path, "-out", files.certificate.path])
        return files
    }

    private static func run(_ arguments: [String]) async throws {
        let result = try await runCommand("openssl", arguments: arguments)
        guard result.status == .exited(0) else {
            throw TestSupportError("openssl \(arguments.joined(separator: " ")) failed: \(result.standardError)")
        }
    }
}
