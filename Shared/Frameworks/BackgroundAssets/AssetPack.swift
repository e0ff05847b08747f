/*
Abstract:
An asset pack as the download manifest describes it: identifier, version, size and custom information.
*/

import AssetPackFormat
import Foundation

/// An archive of assets that the system downloads together.
///
/// An instance can be invalidated when the asset pack that it represents is updated on the server:
/// it describes one version, as the download manifest listed it when the instance was made.
public struct AssetPack: Sendable, Hashable, Identifiable, CustomStringConvertible, Encodable {
    /// A unique ID for the asset pack.
    public let id: String
    /// The asset pack's version number.
    public let version: Int
    /// The size of the download file containing the asset pack in bytes.
    ///
    /// This is different than the installation size, which could be larger.
    public let downloadSize: Int
    /// JSON-encoded custom information that's associated with the asset pack.
    public let userInfo: Data?

    /// The manifest's entry for this version.
    let entry: AssetPackDownloadManifest.Entry
    /// Where the archive is, resolved against the manifest's URL.
    let archiveURL: URL?
    /// The app group the pack is installed in.
    let appGroupID: String

    /// Creates the pack a manifest entry describes.
    /// - Parameters:
    ///   - entry: The download manifest's entry.
    ///   - manifestURL: Where the manifest came from, to resolve a relative archive URL.
    ///   - appGroupID: The app group the pack is installed in.
    init(entry: AssetPackDownloadManifest.Entry, manifestURL: URL?, appGroupID: String) {
        id = entry.id
        version = entry.version
        downloadSize = Int(clamping: entry.downloadSize)
        userInfo = entry.userInfo.map { $0.encoded(pretty: false) }
        self.entry = entry
        archiveURL = entry.archiveURL(relativeTo: manifestURL)
        self.appGroupID = appGroupID
    }

    /// The pack's download policy, as its manifest says.
    var downloadPolicy: AssetPackDownloadPolicy { entry.downloadPolicy }

    /// A textual representation of the pack.
    public var description: String {
        "AssetPack(id: \(id), version: \(version), downloadSize: \(downloadSize), downloadPolicy: \(entry.downloadPolicy.summary))"
    }

    private enum CodingKeys: String, CodingKey {
        case id, version, downloadSize, userInfo
    }

    /// Encodes the pack's public properties.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(version, forKey: .version)
        try container.encode(downloadSize, forKey: .downloadSize)
        try container.encodeIfPresent(userInfo, forKey: .userInfo)
    }
}
