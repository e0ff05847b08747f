/*
Abstract:
The client side of TLS: which CAs are trusted, which versions are spoken, and the sessions kept for resumption.
*/

import COpenSSL
import Foundation
import Synchronization

/// A configured OpenSSL client context, shared by every connection that trusts the same CAs.
///
/// Trust is the system's default verify paths (OpenSSL's store, never modified; ``SystemTrust``
/// says how they are read) plus the PEM files given, such as the CAs a device trusts. TLS 1.2 and 1.3 only; ALPN offers `http/1.1`.
/// Sessions are kept per host and port so a second connection to a server skips the full handshake.
public final class TLSClientContext: @unchecked Sendable {
    // SSL_CTX is safe to share between threads once configured; it is configured in init only.
    let context: OpaquePointer
    private let sessions = Mutex<[String: Session]>([:])

    /// An SSL_SESSION reference; OpenSSL counts references to sessions atomically.
    private struct Session: @unchecked Sendable { let pointer: OpaquePointer }

    /// The CA files this context trusts beyond the system's store.
    public let extraCAFiles: [URL]

    /// Creates a client context.
    /// - Parameter extraCAFiles: PEM files of CAs to trust beyond the system's store.
    /// - Throws: ``TLSError`` of kind `.configuration` naming a CA file that cannot be read.
    public init(extraCAFiles: [URL] = []) throws(TLSError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw TLSError(.configuration, "OpenSSL could not create a TLS context: \(TLSError.drainQueue())")
        }
        self.context = context
        self.extraCAFiles = extraCAFiles
        ignoreBrokenPipes
        _ = copenssl_set_min_version(context, TLS1_2_VERSION)
        _ = copenssl_set_modes(context)
        copenssl_ignore_unexpected_eof(context)
        SystemTrust.add(to: context)
        for file in extraCAFiles where SSL_CTX_load_verify_locations(context, file.path, nil) != 1 {
            let reason = TLSError.drainQueue()
            // deinit frees the context: every stored property is set by now.
            throw TLSError(.configuration, "the CA certificate \(file.path) could not be loaded (\(reason)); check that it is a PEM certificate")
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        let protocols: [UInt8] = [8] + Array("http/1.1".utf8)
        _ = SSL_CTX_set_alpn_protos(context, protocols, UInt32(protocols.count))
        _ = copenssl_set_session_cache_client(context)
        // Read ahead: one recv(2) can bring several records instead of one call per record header and body.
        copenssl_set_read_ahead(context)
    }

    deinit {
        sessions.withLock { sessions in
            for session in sessions.values { SSL_SESSION_free(session.pointer) }
        }
        SSL_CTX_free(context)
    }

    /// Takes a reference to the session kept for `key`, if any; the caller frees it.
    func session(for key: String) -> OpaquePointer? {
        let session: Session? = sessions.withLock { sessions in
            guard let session = sessions[key] else { return nil }
            SSL_SESSION_up_ref(session.pointer)
            return session
        }
        return session?.pointer
    }

    /// Keeps `session` (a reference the context now owns) for the next connection to `key`.
    func keep(_ session: OpaquePointer, for key: String) {
        let kept = Session(pointer: session)
        let previous = sessions.withLock { sessions in
            defer { sessions[key] = kept }
            return sessions[key]
        }
        if let previous { SSL_SESSION_free(previous.pointer) }
    }
}

/// OpenSSL writes to sockets with write(2), which raises SIGPIPE when the peer has gone; the
/// error is reported as a broken connection instead, as `send(MSG_NOSIGNAL)` does for plain sockets.
let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN); return () }()
