/*
Abstract:
A manifest of asset packs that are available to download, read from the JSON a server publishes.
*/

import AssetPackFormat
import Foundation

/// A manifest of asset packs that are available to download.
///
/// The JSON is the download manifest `ba-package download-manifest create` writes (see
/// ``AssetPackFormat/AssetPackDownloadManifest``). Use it to manage packs yourself, from a
/// `BADownloaderExtension`; with managed packs, ``AssetPackManager`` reads it for you.
/// - Note: A pack URL in the manifest may be relative; it resolves against the manifest's URL, and
///   for a manifest read from a file (the copy the system hands the extension), against the app's
///   `BAManifestURL`.
public struct AssetPackManifest: Sendable, CustomStringConvertible {
    /// The asset packs in this manifest that are available to download.
    public let assetPacks: Set<AssetPack>

    /// The manifest as it was read.
    let downloadManifest: AssetPackDownloadManifest
    /// The packs in the manifest's order.
    let orderedPacks: [AssetPack]

    /// Creates a manifest in memory given a URL to the manifest's representation as a JSON file on disk.
    /// - Parameters:
    ///   - url: The manifest's file.
    ///   - appGroupID: The ID of the app group in which to store asset packs downloaded from this manifest.
    /// - Throws: An error naming the file when it cannot be read, or the field at fault when it breaks a rule.
    public init(contentsOf url: URL, appGroupID: String) throws {
        let data = try Data(contentsOf: url)
        let base = url.isFileURL ? Self.appManifestURL() : url
        self.init(manifest: try AssetPackDownloadManifest(parsing: data, source: url.path), manifestURL: base,
                  appGroupID: appGroupID)
    }

    /// Creates a manifest in memory given JSON-encoded data.
    /// - Parameters:
    ///   - data: The manifest's JSON.
    ///   - appGroupID: The ID of the app group in which to store asset packs downloaded from this manifest.
    /// - Throws: An error naming the field at fault when the manifest breaks a rule.
    public init(from data: Data, appGroupID: String) throws {
        self.init(manifest: try AssetPackDownloadManifest(parsing: data, source: "the asset-pack manifest"),
                  manifestURL: Self.appManifestURL(), appGroupID: appGroupID)
    }

    /// Creates a manifest from one already read.
    init(manifest: AssetPackDownloadManifest, manifestURL: URL?, appGroupID: String) {
        downloadManifest = manifest
        orderedPacks = manifest.assetPacks.map { AssetPack(entry: $0, manifestURL: manifestURL, appGroupID: appGroupID) }
        assetPacks = Set(orderedPacks)
    }

    /// Returns the asset pack in this manifest with the given ID, if there is one.
    public func assetPack(withID assetPackID: String) -> AssetPack? {
        orderedPacks.first { $0.id == assetPackID }
    }

    /// Creates download objects for every applicable asset pack in this manifest, which can be
    /// scheduled with the download manager.
    ///
    /// For an install, the packs whose policy applies to a first installation; for an update, to a
    /// subsequent update; for a periodic check, every essential and prefetch pack (as non-essential
    /// downloads, which is all a periodic check may schedule); for `nil`, every pack.
    /// - Parameter contentRequest: The content request being answered, or `nil`.
    /// - Returns: One download per applicable pack.
    public func allDownloads(for contentRequest: BAContentRequest?) -> Set<BADownload> {
        Set(orderedPacks.filter { $0.applies(to: contentRequest) }.map { $0.download(for: contentRequest) })
    }

    /// A textual representation of the manifest.
    public var description: String {
        "AssetPackManifest(\(orderedPacks.map { "\($0.id) v\($0.version)" }.joined(separator: ", ")))"
    }

    /// The app's `BAManifestURL`, which relative pack URLs in a local copy resolve against.
    static func appManifestURL() -> URL? {
        (Bundle.main.object(forInfoDictionaryKey: "BAManifestURL") as? String).flatMap(URL.init(string:))
    }
}

extension AssetPackManifest: Encodable {
    /// Encodes the manifest as the JSON it was read from.
    public func encode(to encoder: any Encoder) throws {
        try downloadManifest.jsonValue.encode(to: encoder)
    }
}
