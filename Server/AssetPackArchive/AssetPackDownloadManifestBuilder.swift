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
    ///     its identifier, as Apple's tool writes it (serve each archive under its pack's identifier).
    ///   - manifestFolder: Without a base URL, the folder the manifest is written to: each pack's URL
    ///     is then its archive's path relative to that folder, so a server serving the folder serves
    ///     the manifest and the archives as they are, wherever it runs.
    ///   - versions: Apple's `--asset-pack-versions`: each archive's version, in the archives' order,
    ///     or `nil`. Each must be the version the archive records, which the service checks it against.
    ///   - platforms: Apple's platform flags (`--ios`, `--macos`…): the devices the manifest is for;
    ///     an archive whose packaging manifest named platforms must name one of them. Empty for any.
    /// - Returns: The manifest.
    /// - Throws: ``AssetPackArchiveError`` for an archive that does not verify, two archives of one
    ///   pack, (without a base URL) an archive outside the manifest's folder, a version that is not
    ///   the archive's, or an archive for none of the platforms.
    public static func manifest(for archives: [URL], downloadBaseURL: URL?, manifestFolder: URL? = nil,
                                versions: [Int]? = nil,
                                platforms: Set<String> = []) throws(AssetPackArchiveError) -> AssetPackDownloadManifest {
        var entries: [AssetPackDownloadManifest.Entry] = []
        var files: [String: String] = [:]
        if let versions, versions.count != archives.count {
            throw AssetPackArchiveError(.invalidSource, path: archives.first?.path ?? "--asset-pack-versions", problem:
                "--asset-pack-versions gives \(versions.count) version(s) for \(archives.count) archive(s); give one "
                + "version for each archive, in the same order.")
        }
        for (index, archive) in archives.enumerated() {
            let reader = try AssetPackArchiveReader(url: archive)
            let header = reader.header
            if let version = versions?[index], version != header.version {
                throw AssetPackArchiveError(.unexpectedPack, path: archive.path, problem: "is \(header.assetPackID) "
                    + "version \(header.version), but --asset-pack-versions gives \(version) for it. The version is "
                    + "recorded in the archive, and the service refuses an archive that is not the version the "
                    + "manifest lists: set \"version\": \(version) in its packaging manifest and package it again.")
            }
            if !platforms.isEmpty, !header.platforms.isEmpty, platforms.isDisjoint(with: header.platforms) {
                throw AssetPackArchiveError(.unexpectedPack, path: archive.path, problem: "is \(header.assetPackID) "
                    + "for \(header.platforms.joined(separator: ", ")), not for \(platforms.sorted().joined(separator: ", ")), "
                    + "the platforms this manifest is for; leave it out, or add the platform to its packaging manifest's "
                    + "\"platforms\" and package it again.")
            }
            if let earlier = files[header.assetPackID] {
                throw AssetPackArchiveError(.invalidSource, path: archive.path, problem: "is another archive of "
                    + "\(header.assetPackID), like \(earlier); a manifest lists each pack once, so pass one of them.")
            }
            files[header.assetPackID] = archive.path
            let digest = try reader.extract(into: nil, wholeFileDigest: true) ?? ""
            let url: String
            if let base = downloadBaseURL {
                url = (base.absoluteString.hasSuffix("/") ? base.absoluteString : base.absoluteString + "/") + header.assetPackID
            } else {
                url = try relativePath(of: archive, in: manifestFolder ?? archive.deletingLastPathComponent())
            }
            entries.append(.init(
                id: header.assetPackID, version: header.version, url: url, downloadSize: reader.archiveSize,
                downloadPolicy: header.downloadPolicy, sha256: digest, installSize: header.installSize,
                userInfo: header.userInfo))
        }
        return AssetPackDownloadManifest(assetPacks: entries)
    }

    /// An archive's path relative to the manifest's folder, percent-encoded as a relative URL.
    private static func relativePath(of archive: URL, in folder: URL) throws(AssetPackArchiveError) -> String {
        let folderPath = folder.standardizedFileURL.resolvingSymlinksInPath().path
        let archivePath = archive.standardizedFileURL.resolvingSymlinksInPath().path
        let prefix = folderPath.hasSuffix("/") ? folderPath : folderPath + "/"
        guard archivePath.hasPrefix(prefix) else {
            throw AssetPackArchiveError(.invalidSource, path: archive.path, problem: "is not inside \(folderPath), where "
                + "the manifest goes, so no relative URL reaches it; move it there, or pass --download-base-url.")
        }
        let relative = String(archivePath.dropFirst(prefix.count))
        return relative.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? relative
    }
}
