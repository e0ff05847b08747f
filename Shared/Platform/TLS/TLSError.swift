/*
Abstract:
Why a TLS handshake or a TLS read or write failed, in words that say what to do next.
*/

import COpenSSL

/// A TLS failure.
public struct TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The peer's certificate was refused: the handshake must not be retried as is.
        case certificate(CertificateProblem)
        /// The handshake did not finish before its deadline.
        case timedOut
        /// The peer closed the connection, or the connection broke.
        case connectionLost
        /// The handshake failed for another reason (protocol version, cipher, not TLS at all).
        case handshakeFailed
        /// A certificate or key file could not be read.
        case configuration
    }

    /// What is wrong with a certificate.
    public enum CertificateProblem: String, Sendable, Equatable {
        case untrustedIssuer = "untrusted issuer"
        case expired = "expired"
        case notYetValid = "not yet valid"
        case nameMismatch = "name mismatch"
        case selfSigned = "self-signed"
        case invalid = "invalid"
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// The certificate problem OpenSSL's verification result names.
    static func problem(verifyResult: Int) -> CertificateProblem {
        switch Int32(verifyResult) {
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT: .selfSigned
        case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT,
             X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE: .untrustedIssuer
        case X509_V_ERR_CERT_HAS_EXPIRED: .expired
        case X509_V_ERR_CERT_NOT_YET_VALID: .notYetValid
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH: .nameMismatch
        default: .invalid
        }
    }

    /// The error for a refused certificate of `host`.
    static func certificate(verifyResult: Int, host: String) -> TLSError {
        let problem = problem(verifyResult: verifyResult)
        let detail = String(cString: X509_verify_cert_error_string(verifyResult))
        let advice = switch problem {
        case .untrustedIssuer, .selfSigned:
            "trust the CA that issued it on this device with `backgroundassets-debug trust add CA.pem`"
        case .expired, .notYetValid:
            "renew the server's certificate, or check this machine's clock"
        case .nameMismatch:
            "use a URL whose host is in the certificate's subjectAltName, or reissue the certificate for \(host)"
        case .invalid:
            "check the server's certificate chain"
        }
        return TLSError(.certificate(problem), "the certificate of \(host) was refused (\(problem.rawValue): \(detail)); \(advice)")
    }

    /// The oldest queued OpenSSL error as text, clearing the queue.
    static func drainQueue() -> String {
        var text = ""
        while case let code = ERR_get_error(), code != 0 {
            if text.isEmpty {
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                text = String(decoding: buffer.prefix(while: { $0 != 0 }).map(UInt8.init(bitPattern:)), as: UTF8.self)
            }
        }
        return text
    }
}

import Foundation

extension TLSError: LocalizedError {
    public var errorDescription: String? { message }
}
