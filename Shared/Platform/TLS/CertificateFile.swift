/*
Abstract:
What a PEM certificate file says about itself: subject, issuer, validity, and SHA-256 fingerprint.
*/

import COpenSSL
import Foundation

/// A summary of one PEM certificate, for trust lists and error messages.
public struct CertificateSummary: Sendable, Equatable, Codable {
    /// The subject's distinguished name, one line.
    public var subject: String
    /// The issuer's distinguished name, one line.
    public var issuer: String
    /// The SHA-256 fingerprint, lowercase hex without separators.
    public var sha256: String
    /// Whether the certificate is a CA (basicConstraints CA:TRUE).
    public var isCA: Bool
    /// The end of its validity, as OpenSSL prints it.
    public var notAfter: String

    /// Reads the first certificate of a PEM text.
    /// - Throws: ``TLSError`` of kind `.configuration` when the text holds no certificate.
    public init(pem: String) throws(TLSError) {
        let certificate = try CertificateIssuer.loadCertificate(pem: pem)
        defer { X509_free(certificate) }
        subject = Self.oneLine(X509_get_subject_name(certificate))
        issuer = Self.oneLine(X509_get_issuer_name(certificate))
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        X509_digest(certificate, EVP_sha256(), &digest, &length)
        sha256 = digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
        isCA = X509_check_ca(certificate) != 0
        let bio = BIO_new(BIO_s_mem())
        defer { BIO_free(bio) }
        ASN1_TIME_print(bio, X509_get0_notAfter(certificate))
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let count = BIO_read(bio, &bytes, Int32(bytes.count))
        notAfter = String(decoding: bytes.prefix(Int(max(0, count))), as: UTF8.self)
    }

    private static func oneLine(_ name: OpaquePointer?) -> String {
        guard let name, let text = X509_NAME_oneline(name, nil, 0) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }
}
