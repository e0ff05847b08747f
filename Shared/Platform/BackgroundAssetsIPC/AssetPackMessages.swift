/*
Abstract:
The values the asset-pack manager and the service exchange: the manifest, request outcomes, pack changes and status events.
*/

/// The app's latest download manifest, as the service fetched it from the app's `BAManifestURL`
/// (answer to `fetchAssetPackManifest`).
///
/// The manifest travels as the JSON the server sent, so the framework reads it with the same
/// parser, and the same refusals, as every other reader of download manifests.
public struct AssetPackManifestReply: Codable, Sendable, Equatable {
    /// Where the manifest was fetched from; relative pack URLs resolve against it.
    public var url: String
    /// The manifest's JSON text.
    public var json: String

    /// Creates a reply.
    /// - Parameters:
    ///   - url: Where the manifest was fetched from.
    ///   - json: The manifest's JSON text.
    public init(url: String, json: String) {
        self.url = url
        self.json = json
    }
}

/// What became of an app's request to download a pack version (answer to `requestAssetPack`).
public enum AssetPackRequestOutcome: String, Codable, Sendable, Equatable {
    /// The system scheduled the download.
    case scheduled
    /// A download of that version was already under way; the request joined it.
    case joined
    /// That version is already installed.
    case alreadyInstalled
}

/// Pack identifiers an answer is about (answer to `removeAssetPack`, `checkAssetPackUpdates`,
/// `fetchDownloadingAssetPacks` and `purgeAssetPacks`).
public struct AssetPackChanges: Codable, Sendable, Equatable {
    /// Packs whose download is under way.
    public var downloading: [String]
    /// Packs whose newer version the request scheduled.
    public var updating: [String]
    /// Packs the request removed from the device.
    public var removed: [String]

    /// Creates an answer; identifiers are kept sorted, so answers compare and print the same.
    public init(downloading: [String] = [], updating: [String] = [], removed: [String] = []) {
        self.downloading = downloading.sorted()
        self.updating = updating.sorted()
        self.removed = removed.sorted()
    }
}

/// One step of an asset pack's life, pushed to the connections of its app that watch asset packs
/// (the `assetPackStatus` event), in the order the service saw them.
public struct AssetPackStatusEvent: Codable, Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// The pack's download began, or resumed.
        case began
        /// The pack's download paused.
        case paused
        /// The pack's download progressed: ``completedBytes`` of ``totalBytes``.
        case downloading
        /// The pack was downloaded, verified and unpacked.
        case finished
        /// The download, verification or unpacking failed: ``failure`` says why.
        case failed
        /// The pack was removed from the device.
        case removed
    }

    /// What happened.
    public var kind: Kind
    /// The pack it happened to.
    public var packID: String
    /// The version being downloaded; `nil` for ``Kind/removed``.
    public var version: Int?
    /// The archive's bytes so far, for ``Kind/downloading``.
    public var completedBytes: Int64?
    /// The archive's size, for ``Kind/downloading``.
    public var totalBytes: Int64?
    /// Why it failed, for ``Kind/failed``.
    public var failure: WireFailure?

    /// Creates an event.
    public init(kind: Kind, packID: String, version: Int?, completedBytes: Int64? = nil, totalBytes: Int64? = nil,
                failure: WireFailure? = nil) {
        self.kind = kind
        self.packID = packID
        self.version = version
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.failure = failure
    }
}

/// One asset pack of an installed app, as `backgroundassets-debug status` and `packs` show it.
public struct AssetPackStatus: Codable, Sendable, Equatable {
    /// The pack's identifier.
    public var packID: String
    /// The version on the device, or `nil` while the first one downloads.
    public var installedVersion: Int?
    /// The version being downloaded, or `nil` when none is.
    public var downloadingVersion: Int?
    /// The pack's download policy, as a short phrase (`essential (firstInstallation)`, `onDemand`).
    public var downloadPolicy: String
    /// Where it stands: `installed`, `queued`, `downloading`, `installing`, `updating`.
    public var state: String
    /// The bytes its files occupy on disk, when installed.
    public var sizeOnDisk: Int64?
    /// The archive's bytes so far and its size, while it downloads.
    public var completedBytes: Int64?
    public var totalBytes: Int64?

    /// Creates a pack status.
    public init(packID: String, installedVersion: Int?, downloadingVersion: Int?, downloadPolicy: String, state: String,
                sizeOnDisk: Int64? = nil, completedBytes: Int64? = nil, totalBytes: Int64? = nil) {
        self.packID = packID
        self.installedVersion = installedVersion
        self.downloadingVersion = downloadingVersion
        self.downloadPolicy = downloadPolicy
        self.state = state
        self.sizeOnDisk = sizeOnDisk
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }
}
