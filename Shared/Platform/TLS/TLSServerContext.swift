/*
Abstract:
The server side of TLS: one certificate chain and its key, and the protocol versions spoken, fixed when the context is made.
*/

import COpenSSL
import Foundation

/// A configured OpenSSL server context, shared by every connection the server accepts.
///
/// TLS 1.2 and 1.3 by default. Everything is set in `init`; the context never changes afterwards.
public final class TLSServerContext: @unchecked Sendable {
    // @unchecked: OpenSSL allows an SSL_CTX to be shared between threads once it is configured, and
    // this one is configured in init only; connections read it, nothing writes it afterwards.
    let context: OpaquePointer

    /// Creates a server context.
    /// - Parameters:
    ///   - certificateChain: A PEM file with the server's certificate first, then any intermediates.
    ///   - privateKey: The PEM file of the certificate's private key.
    ///   - newestVersion: The newest protocol version to speak, to play an old server in tests; it also
    ///     allows every version below it. `nil` (the default) speaks TLS 1.2 and 1.3.
    /// - Throws: ``TLSError`` of kind `.configuration` naming the file that is wrong.
    public init(certificateChain: URL, privateKey: URL, newestVersion: TLSVersion? = nil) throws(TLSError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw TLSError(.configuration, "OpenSSL could not create a TLS context: \(TLSError.drainQueue())")
        }
        self.context = context
        ignoreBrokenPipes
        if let newestVersion {
            // Versions before 1.2 need the lowest security level to be offered at all.
            SSL_CTX_set_security_level(context, 0)
            _ = copenssl_set_min_version(context, TLS1_VERSION)
            _ = copenssl_set_max_version(context, newestVersion.rawValue)
        } else {
            _ = copenssl_set_min_version(context, TLS1_2_VERSION)
        }
        _ = copenssl_set_modes(context)
        copenssl_ignore_unexpected_eof(context)
        guard SSL_CTX_use_certificate_chain_file(context, certificateChain.path) == 1 else {
            let reason = TLSError.drainQueue()
            // deinit frees the context: every stored property is set by now.
            throw TLSError(
                .configuration, "the certificate \(certificateChain.path) could not be loaded (\(reason)); give a PEM certificate chain")
        }
        guard SSL_CTX_use_PrivateKey_file(context, privateKey.path, SSL_FILETYPE_PEM) == 1,
              SSL_CTX_check_private_key(context) == 1 else {
            let reason = TLSError.drainQueue()
            // deinit frees the context: every stored property is set by now.
            throw TLSError(
                .configuration,
                "the private key \(privateKey.path) could not be loaded or does not match the certificate (\(reason))")
        }
    }

    deinit { SSL_CTX_free(context) }
}

/// A TLS protocol version older than the ones clients here accept, for a server that plays an old one.
public struct TLSVersion: Sendable, Equatable {
    /// OpenSSL's number for the version.
    let rawValue: Int32

    /// TLS 1.1, which the service's transfers refuse.
    public static let tls11 = TLSVersion(rawValue: TLS1_1_VERSION)
}
