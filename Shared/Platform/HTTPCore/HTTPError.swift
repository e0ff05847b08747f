/*
Abstract:
Why an HTTP exchange failed: making the connection, the connection itself, the server's answer, or the caller stopping it.
*/

import TLS

/// A failure of an HTTP/1.1 exchange, with a message that names what happened.
///
/// Each client maps it to its own errors: the service's transfer engine to `TransferError`, which
/// decides whether to retry; the app's fetch to its failure.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The name did not resolve, or no address accepted a connection in time.
        case connectionFailed
        /// The connection broke, or the server closed it before the answer was complete.
        case connectionLost
        /// The server sent nothing, or took nothing, for longer than the deadline.
        case timedOut
        /// The server's certificate was refused: the same request cannot succeed as it is.
        case certificate(TLSError.CertificateProblem)
        /// The TLS handshake failed for a reason other than the certificate (versions, ciphers, not TLS).
        case secureConnectionFailed
        /// The answer broke HTTP/1.1's rules.
        case malformedResponse
        /// The caller stopped the exchange.
        case cancelled
    }

    /// What went wrong.
    public var kind: Kind
    /// What happened, in words, for the caller's own message.
    public var message: String

    /// An error of a kind, with its message.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
