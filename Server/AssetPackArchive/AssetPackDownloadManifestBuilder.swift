/*
Abstract:
Builds the download manifest a server publishes from the archives it serves, each verified byte by byte.
*/

import AssetPackFormat
import Foundation

/// What `ba-package download-manifest create` does: reads each archive, verifies it, and lists it
/// with its version, policy, sizes, SHA-256 and URL.
public enum AssetPackDownloadManifestBuilder {
    /// Builds a manifest.
    /// - Parameters:
    ///   - archives: The archives, in the order to list them.
    ///   - downloadBaseURL: The URL the archives are served under; each pack's URL is the base plus
    ///     its identifier, as Apple's tool writes it. `nil` writes the bare identifier, a URL relative
    ///     to the manifest's own, so the manifest and the archives can move together.
    /// - Returns: The manifest.
    /// - Throws: ``AssetPackArchiveError`` for an archive that does not verify, or two archives of one pack.
    public static func manifest(for archives: [URL], downloadBaseURL: URL?) throws(AssetPackArchiveError) -> AssetPackDownloadManifest {
        var entries: [AssetPackDownloadManifest.Entry] = []
        var files: [String: String] = [:]
        for archive in archives {
            let reader = try AssetPackArchiveReader(url: archive)
            let header = reader.header
            if let earlier = files[header.assetPackID] {
                throw AssetPackArchiveError(.invalidSource, path: archive.path, problem: "is another archive of "
                    + "\(header.assetPackID), like \(earlier); a manifest lists each pack once, so pass one of them.")
            }
            files[header.assetPackID] = archive.path
            let digest = try reader.extract(into: nil, wholeFileDigest: true) ?? ""
            let url = downloadBaseURL.map { base in
                (base.absoluteString.hasSuffix("/") ? base.absoluteString : base.absoluteString + "/") + header.assetPackID
            } ?? header.assetPackID
            entries.append(.init(
                id: header.assetPackID, version: header.version, url: url, downloadSize: reader.archiveSize,
                downloadPolicy: header.downloadPolicy, sha256: digest, installSize: header.installSize,
                userInfo: header.userInfo))
        }
        return AssetPackDownloadManifest(assetPacks: entries)
    }
}
