/*
Abstract:
Why a transfer attempt failed, where (local file, remote server, transport), and whether to retry.
*/

import TLS

/// The failure of one transfer attempt.
///
/// Like BITS' error contexts, every error says where it arose, so the queue can tell a full disk
/// (retrying cannot help until space is freed) from a flaky network (retry with backoff) from a
/// server that refuses the file (give up).
struct TransferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the failure arose.
    enum Context: String, Sendable, Codable {
        /// The staging file on this device.
        case local
        /// The server's answer.
        case remote
        /// The connection between the two.
        case transport
    }

    /// What went wrong.
    enum Kind: Sendable, Equatable {
        /// The URL cannot be fetched by this engine (scheme, host).
        case unsupportedURL
        /// No connection could be made.
        case connectionFailed
        /// The connection broke, or ended before the declared length.
        case connectionLost
        /// No bytes arrived for longer than the stall timeout.
        case stalled
        /// The response broke HTTP's rules.
        case malformedResponse
        /// The server answered with an error status.
        case httpStatus(Int)
        /// The server demands credentials (401).
        case authenticationRequired(realm: String?)
        /// The file's length differs from the size the download declared.
        case sizeMismatch(expected: Int64, actual: Int64)
        /// Redirects went on for too long.
        case tooManyRedirects
        /// A redirect led to a host the app's `BADownloadDomainAllowList` does not allow before its first launch.
        case disallowedHost(String)
        /// The staging file could not be written, or the disk is full.
        case localFile(errno: Int32)
        /// The attempt was stopped on purpose.
        case cancelled
        /// The server's certificate was refused: untrusted issuer, expired, wrong name, self-signed.
        case certificate(TLSError.CertificateProblem)
        /// The TLS handshake failed for a reason other than the certificate (versions, ciphers, not TLS).
        case secureConnectionFailed
        /// A redirect would have left https for plain http, or led to plain http on another machine.
        case insecureRedirect
        /// The server delivered less than the minimum rate over a whole window (`lowSpeedLimit`, `lowSpeedTime`).
        case tooSlow
        /// The body was encoded (`Content-Encoding: gzip`, a transfer coding other than chunked)
        /// although the request asked for the bytes as they are; the coding is named.
        case unrequestedCoding(String)
    }

    var context: Context
    var kind: Kind
    var message: String
    /// How long the server asked to wait (`Retry-After`), when it did.
    var retryAfter: Duration?

    init(_ context: Context, _ kind: Kind, _ message: String, retryAfter: Duration? = nil) {
        self.context = context
        self.kind = kind
        self.message = message
        self.retryAfter = retryAfter
    }

    /// Whether trying again later can succeed without anything else changing.
    var isRetryable: Bool {
        switch kind {
        case .connectionFailed, .connectionLost, .stalled, .tooSlow: true
        case let .httpStatus(status): status == 408 || status == 429 || status >= 500
        case .malformedResponse, .unsupportedURL, .authenticationRequired, .sizeMismatch, .tooManyRedirects,
             .disallowedHost, .localFile, .cancelled, .certificate, .secureConnectionFailed, .insecureRedirect,
             .unrequestedCoding: false
        }
    }

    /// Whether the failure is one of connectivity, which a foreground download reports at once
    /// and a background download waits out without spending its retry budget.
    var isConnectivityFailure: Bool {
        kind == .connectionFailed
    }

    var description: String {
        switch context {
        case .local: "Local file error: \(message)"
        case .remote: "Server error: \(message)"
        case .transport: "Network error: \(message)"
        }
    }
}
