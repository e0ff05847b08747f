/*
Abstract:
One download as the service's queue holds it: the client's descriptor plus the transfer's progress.
*/

import BackgroundAssetsIPC
import Foundation

/// A download in the queue: what the client asked for, and everything the service knows about it.
public struct DownloadRow: Sendable, Equatable {
    /// The row id; it names the staging file, so no client string ever becomes a path.
    public let id: Int64
    /// The bundle identifier of the app that owns the download (the extension shares its app's).
    public let bundleIdentifier: String
    /// The download as the client described it, with its current state.
    public var descriptor: DownloadDescriptor
    /// Whether the download runs in the foreground: started or promoted by the app, not throttled.
    public var isForeground: Bool
    /// The bytes of the staging file known to be on disk (synced before this was stored).
    public var bytesDurable: Int64
    /// The file's complete length as the server reported it, once known.
    public var expectedLength: Int64?
    /// The server's strong entity tag for the bytes on disk, used in `If-Range` when resuming.
    public var entityTag: String?
    /// The server's `Last-Modified` for the bytes on disk, used when there is no strong entity tag.
    public var lastModified: String?
    /// How many attempts have been made.
    public var attempts: Int
    /// The error of the latest failed attempt, or of the download when it failed.
    public var lastError: WireFailure?
    /// When the download was scheduled.
    public let createdAt: Date
    /// When the row last changed.
    public var updatedAt: Date
    /// The earliest time the next attempt may start (backoff, `Retry-After`).
    public var nextAttemptAt: Date
    /// When bytes last arrived; a download without progress for too long fails.
    public var lastProgressAt: Date?

    /// The download's state, a shorthand for `descriptor.state`.
    public var state: DownloadDescriptor.State {
        get { descriptor.state }
        set { descriptor.state = newValue }
    }
}

/// A download to add to the queue.
public struct NewDownload: Sendable, Equatable {
    /// The app that owns the download.
    public var bundleIdentifier: String
    /// The download as the client described it.
    public var descriptor: DownloadDescriptor
    /// Whether it starts in the foreground.
    public var isForeground: Bool
    /// Why it starts parked behind its origin's probe (``DownloadStore/parkedUntilReachable``), or
    /// `nil` for a download due at once.
    public var parkedBecause: WireFailure?

    /// Creates a download to add.
    /// - Parameters:
    ///   - bundleIdentifier: The app that owns the download.
    ///   - descriptor: The download as the client described it.
    ///   - isForeground: Whether it starts in the foreground.
    public init(bundleIdentifier: String, descriptor: DownloadDescriptor, isForeground: Bool = false) {
        self.bundleIdentifier = bundleIdentifier
        self.descriptor = descriptor
        self.isForeground = isForeground
    }
}
