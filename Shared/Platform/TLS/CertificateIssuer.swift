/*
Abstract:
Issuing EC P-256 certificates: a local CA, and server certificates it signs for given names and addresses.
*/

import COpenSSL
import Foundation

/// A certificate and its private key, both PEM.
public struct IssuedCertificate: Sendable {
    public var certificatePEM: String
    public var privateKeyPEM: String

    public init(certificatePEM: String, privateKeyPEM: String) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }
}

/// Issues certificates with OpenSSL's libcrypto, so neither tests nor users need the `openssl` tool.
public enum CertificateIssuer {
    /// Issues a self-signed CA certificate.
    /// - Parameters:
    ///   - commonName: The CA's name, as trust lists show it.
    ///   - validFor: How long from now it stays valid.
    public static func certificateAuthority(commonName: String, validFor: Duration = .seconds(10 * 365 * 86_400)) throws(TLSError) -> IssuedCertificate {
        try issue(commonName: commonName, names: [], isCA: true, notBefore: -3600, notAfter: validFor.components.seconds, issuer: nil)
    }

    /// Issues a server certificate signed by `issuer`.
    /// - Parameters:
    ///   - names: DNS names and IP addresses for its subjectAltName.
    ///   - issuer: The CA that signs it; `nil` makes it self-signed.
    ///   - notBefore: Seconds from now when it becomes valid (negative for the past).
    ///   - notAfter: Seconds from now when it expires (negative for an expired certificate).
    public static func server(
        names: [String], issuer: IssuedCertificate?, notBefore: Int64 = -3600, notAfter: Int64 = 825 * 86_400
    ) throws(TLSError) -> IssuedCertificate {
        try issue(commonName: names.first ?? "localhost", names: names, isCA: false, notBefore: notBefore, notAfter: notAfter, issuer: issuer)
    }

    private static func issue(
        commonName: String, names: [String], isCA: Bool, notBefore: Int64, notAfter: Int64, issuer: IssuedCertificate?
    ) throws(TLSError) -> IssuedCertificate {
        guard let key = copenssl_generate_p256_key(), let certificate = X509_new() else {
            throw TLSError(.configuration, "OpenSSL could not generate a key: \(TLSError.drainQueue())")
        }
        defer { EVP_PKEY_free(key); X509_free(certificate) }
        var signingKey = key
        var issuerCertificate = certificate
        var loadedIssuer: (OpaquePointer, OpaquePointer)?
        if let issuer {
            let loaded = try (loadCertificate(pem: issuer.certificatePEM), loadKey(pem: issuer.privateKeyPEM))
            loadedIssuer = loaded
            issuerCertificate = loaded.0
            signingKey = loaded.1
        }
        defer { if let loadedIssuer { X509_free(loadedIssuer.0); EVP_PKEY_free(loadedIssuer.1) } }

        X509_set_version(certificate, 2)
        var serial = [UInt8](repeating: 0, count: 16)
        RAND_bytes(&serial, Int32(serial.count))
        serial[0] &= 0x7f
        let number = BN_bin2bn(serial, Int32(serial.count), nil)
        BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate))
        BN_free(number)
        X509_gmtime_adj(X509_getm_notBefore(certificate), Int(notBefore))
        X509_gmtime_adj(X509_getm_notAfter(certificate), Int(notAfter))
        X509_set_pubkey(certificate, key)
        let subject = X509_get_subject_name(certificate)
        X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC, commonName, -1, -1, 0)
        X509_set_issuer_name(certificate, X509_get_subject_name(issuerCertificate))

        var extensionContext = X509V3_CTX()
        X509V3_set_ctx(&extensionContext, issuerCertificate, certificate, nil, nil, 0)
        var extensions: [(Int32, String)] = [
            (NID_basic_constraints, isCA ? "critical,CA:TRUE" : "critical,CA:FALSE"),
            (NID_key_usage, isCA ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature"),
            (NID_subject_key_identifier, "hash"),
        ]
        if issuer != nil || isCA { extensions.append((NID_authority_key_identifier, "keyid:always")) }
        if !isCA {
            extensions.append((NID_ext_key_usage, "serverAuth"))
            let altNames = names.map { TLSStream.isIPAddress($0) ? "IP:\($0)" : "DNS:\($0)" }.joined(separator: ",")
            if !altNames.isEmpty { extensions.append((NID_subject_alt_name, altNames)) }
        }
        for (nid, value) in extensions {
            guard let item = X509V3_EXT_conf_nid(nil, &extensionContext, nid, value) else {
                throw TLSError(.configuration, "OpenSSL refused the extension \(value): \(TLSError.drainQueue())")
            }
            X509_add_ext(certificate, item, -1)
            X509_EXTENSION_free(item)
        }
        guard X509_sign(certificate, signingKey, EVP_sha256()) > 0 else {
            throw TLSError(.configuration, "OpenSSL could not sign the certificate: \(TLSError.drainQueue())")
        }
        return IssuedCertificate(certificatePEM: try pem { PEM_write_bio_X509($0, certificate) },
                                 privateKeyPEM: try pem { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) })
    }

    static func loadCertificate(pem: String) throws(TLSError) -> OpaquePointer {
        guard let certificate = try read(pem, with: { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw TLSError(.configuration, "the text is not a PEM certificate: \(TLSError.drainQueue())")
        }
        return certificate
    }

    static func loadKey(pem: String) throws(TLSError) -> OpaquePointer {
        guard let key = try read(pem, with: { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            throw TLSError(.configuration, "the text is not a PEM private key: \(TLSError.drainQueue())")
        }
        return key
    }

    /// Hands PEM text to an OpenSSL reader through a memory BIO.
    ///
    /// `BIO_new_mem_buf` does not copy: the reader reads the buffer later, so the bytes must stay
    /// valid until it returns. A `String` passed straight to the C function would be a temporary
    /// copy, freed as soon as `BIO_new_mem_buf` returns, and the parse would read freed memory
    /// (`no start line` or `bad end line`, differing from run to run).
    private static func read(_ pem: String, with reader: (OpaquePointer) -> OpaquePointer?) throws(TLSError) -> OpaquePointer? {
        let bytes = Array(pem.utf8)
        guard let length = Int32(exactly: bytes.count) else {
            throw TLSError(.configuration, "the text is \(bytes.count) bytes, too long for a PEM certificate or key")
        }
        return bytes.withUnsafeBytes { buffer -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, length) else { return nil }
            defer { BIO_free(bio) }
            return reader(bio)
        }
    }

    private static func pem(_ write: (OpaquePointer) -> Int32) throws(TLSError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw TLSError(.configuration, "OpenSSL could not allocate a buffer") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw TLSError(.configuration, "OpenSSL could not write PEM: \(TLSError.drainQueue())") }
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let count = BIO_read(bio, &bytes, Int32(bytes.count))
        return String(decoding: bytes.prefix(Int(max(0, count))), as: UTF8.self)
    }
}
