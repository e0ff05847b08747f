/*
Abstract:
What one transfer attempt is asked to do, what it reports while it runs, and what it produces.
*/

import Foundation

/// The input of one transfer attempt: where to fetch from and what is already on disk.
struct TransferRequest: Sendable {
    /// The file to fetch, http or https.
    var url: URL
    /// The staging file the bytes go to.
    var partFile: URL
    /// The length the download declared (`fileSize`), which the server's length must equal.
    var expectedLength: Int64?
    /// How many bytes of `partFile` were synced to disk and recorded by an earlier attempt.
    var durableLength: Int64 = 0
    /// The version those bytes belong to; without one they cannot be resumed.
    var validator: ResumeValidator?
    /// Credentials to send, after a challenge was answered with them.
    var credential: BasicCredential?
    /// Extra header fields from the client's request; fields the engine owns, and any with a
    /// line break or NUL in them, are never sent (see ``HTTPTransfer``).
    var headers: [String: String] = [:]
    /// Sync and report progress at least every this many bytes...
    var checkpointBytes: Int64 = 1 << 20
    /// ...and at least this often.
    var checkpointInterval: Duration = .seconds(1)
    /// Give up on a connection that delivers nothing for this long.
    var stallTimeout: Duration = .seconds(30)
    /// Give up on connecting after this long.
    var connectTimeout: Duration = .seconds(10)
    /// Give up on a server that delivers less than this many bytes per second on average...
    var lowSpeedLimit: Int64 = 1024
    /// ...over this long (curl's `--speed-limit` and `--speed-time`); see ``LowSpeedWatch``.
    var lowSpeedTime: Duration = .seconds(30)
    /// Follow at most this many redirects.
    var maximumRedirects = 5
    /// The hosts a redirect may lead to, before the app's first launch; `nil` allows any.
    var allowedHosts: DomainAllowList?
    /// The CAs an https server's certificate may chain to; `nil` trusts the system's store only.
    var trust: TrustedCertificates?
    /// Where kept-alive connections wait between transfers; `nil` closes each after its response.
    var connections: ConnectionPool?
    /// Sees the body's bytes as they arrive and may store them itself (a pack archive, digested and
    /// its files written as it arrives); `nil` for most downloads.
    var bodyObserver: (any TransferBodyObserver)?
    /// Whether the finished file is synced before the transfer ends. Only a file nothing reads
    /// after a restart of the service skips the wait: a pack archive, fetched again after a restart
    /// and whose unpack syncs the pack's files, and a content request's manifest, read at once and
    /// fetched again by the next request.
    var syncsFinishedFile = true
    /// The group whose members sync their finished files together (``SyncGroup``); `nil` syncs at once.
    var syncGroup: SyncGroup?

    /// The rules every redirect of this transfer must satisfy.
    var redirectPolicy: RedirectPolicy {
        RedirectPolicy(maximumRedirects: maximumRedirects, allowedHosts: allowedHosts)
    }
}

/// A user name and password for HTTP Basic authentication.
struct BasicCredential: Sendable, Equatable {
    var user: String
    var password: String

    /// The `Authorization` field value.
    var authorization: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }
}

/// What a transfer reports while it runs, on its own thread.
enum TransferEvent: Sendable, Equatable {
    /// The server answered; the body of `expectedLength` bytes in all starts at `offset`.
    case began(offset: Int64, expectedLength: Int64?)
    /// The bytes on disk were discarded because the file changed or could not be resumed.
    case restartedFromZero(reason: String)
    /// Bytes were written; `totalWritten` counts the whole file so far.
    case progress(totalWritten: Int64, expectedLength: Int64?)
    /// `length` bytes are synced to disk: the store may record them as durable.
    case checkpoint(length: Int64, validator: ResumeValidator?)
    /// A redirect from `from` to `to` passed every rule and is followed; the last one names the
    /// URL the bytes come from.
    case redirected(from: URL, to: URL, status: Int)
    /// The server moved the file for good: later attempts should use the new URL.
    case movedPermanently(to: URL)
    /// Every byte of the body arrived and the connection went back to the pool: what is left of
    /// the attempt is making the file durable, which needs no slot (``TransferSlots``).
    case bodyEnded
}

/// The result of a transfer that completed.
struct TransferResult: Sendable, Equatable {
    /// The file's length, equal to the part file's length.
    var length: Int64
    /// The version downloaded.
    var validator: ResumeValidator?
    /// The URL the bytes finally came from, after redirects.
    var finalURL: URL
}
