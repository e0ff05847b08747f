/*
Abstract:
The wire form of a download: everything the service and its clients exchange about one `BADownload`.
*/

/// A snapshot of one download as it travels between a client and the service.
///
/// `BackgroundAssets` converts its `BADownload` objects to and from this value; the service stores
/// and returns it without ever importing the framework.
public struct DownloadDescriptor: Codable, Sendable, Hashable {
    /// The lifecycle of a download, with the raw values of `BADownload.State`.
    public enum State: Int, Codable, Sendable, CaseIterable {
        /// The download ended with an error.
        case failed = -1
        /// The download exists but was never scheduled.
        case created = 0
        /// The download is queued and waits for its turn, connectivity, or a retry.
        case waiting = 1
        /// The download is transferring bytes.
        case downloading = 2
        /// The download ended with its file.
        case finished = 3

        /// Whether the download has ended, one way or the other.
        public var isTerminal: Bool { self == .failed || self == .finished }
    }

    /// Which class of `BADownload` the descriptor stands for.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// A `BAURLDownload` the app or extension created.
        case url
        /// The manifest download the service makes for a content request.
        case manifest
        /// A task of an app's background URL session: the system's transfer, never a `BADownload`.
        case backgroundSession
        /// The archive of a managed asset pack, which the system downloads and installs for the app.
        case assetPack
    }

    /// The app-specific identifier of the asset, for example a session id.
    public var identifier: String
    /// The service-wide identifier of this download object (a UUID string).
    public var uniqueIdentifier: String
    /// Which class of download this is.
    public var kind: Kind
    /// The URL to fetch, as a string so that any URL the client built survives the trip.
    public var url: String
    /// Extra request header fields, for example `Authorization`.
    public var headers: [String: String]
    /// The exact size of the file in bytes, or 0 when unknown.
    public var fileSize: Int
    /// The app group whose container receives the finished file.
    public var applicationGroupIdentifier: String
    /// The priority, from -1000 to 1000; higher runs first.
    public var priority: Int
    /// Whether the download must finish before the app can launch.
    public var isEssential: Bool
    /// The state when the snapshot was taken.
    public var state: State

    /// Creates a descriptor.
    /// - Parameters:
    ///   - identifier: The app-specific identifier.
    ///   - uniqueIdentifier: The identifier of this download object.
    ///   - kind: Which class of download this is.
    ///   - url: The URL to fetch.
    ///   - headers: Extra request header fields.
    ///   - fileSize: The exact size in bytes, or 0 when unknown.
    ///   - applicationGroupIdentifier: The app group that receives the file.
    ///   - priority: The priority, from -1000 to 1000.
    ///   - isEssential: Whether the download is essential.
    ///   - state: The state of the download.
    public init(
        identifier: String,
        uniqueIdentifier: String,
        kind: Kind = .url,
        url: String,
        headers: [String: String] = [:],
        fileSize: Int = 0,
        applicationGroupIdentifier: String,
        priority: Int = 0,
        isEssential: Bool = false,
        state: State = .created
    ) {
        self.identifier = identifier
        self.uniqueIdentifier = uniqueIdentifier
        self.kind = kind
        self.url = url
        self.headers = headers
        self.fileSize = fileSize
        self.applicationGroupIdentifier = applicationGroupIdentifier
        self.priority = priority
        self.isEssential = isEssential
        self.state = state
    }
}
