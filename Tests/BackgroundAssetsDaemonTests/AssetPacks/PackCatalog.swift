/*
Abstract:
A folder of asset-pack archives and their download manifest, as an asset server serves them, for the service's tests.
*/

import AssetPackArchive
import AssetPackFormat
import Foundation
import TestSupport

/// Packs built with the packaging tool's library into a folder that `asset-server --catalog` serves,
/// with `manifest.json` listing them by relative URL.
final class PackCatalog: Sendable {
    let directory: TemporaryDirectory
    var folder: URL { directory.url.appending(path: "packs", directoryHint: .isDirectory) }

    init() throws {
        directory = try TemporaryDirectory(prefix: "pack-catalog")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Packages `files` (path to contents) as a pack version into `packs/ID.aar`, replacing an earlier one.
    @discardableResult
    func add(_ id: String, version: Int = 1, policy: String, files: [String: String]) throws -> URL {
        let source = directory.url.appending(path: "source-\(id)-\(version)", directoryHint: .isDirectory)
        for (path, contents) in files {
            let file = source.appending(path: path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: file)
        }
        let selectors = files.keys.sorted().map { #"{ "file": "\#($0)" }"# }.joined(separator: ", ")
        let manifest = source.appending(path: "Manifest.json")
        try Data(#"{ "assetPackID": "\#(id)", "version": \#(version), "downloadPolicy": \#(policy), "fileSelectors": [\#(selectors)] }"#.utf8)
            .write(to: manifest)
        let archive = folder.appending(path: "\(id).aar")
        try AssetPackPackager.package(manifest: manifest, workingDirectory: source, output: archive)
        return archive
    }

    /// Writes `manifest.json` listing every archive of the folder.
    func publish() throws {
        let archives = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "aar" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        let manifest = try AssetPackDownloadManifestBuilder.manifest(for: archives, downloadBaseURL: nil, manifestFolder: folder)
        try manifest.encoded().write(to: folder.appending(path: "manifest.json"))
    }

    static let essential = #"{ "essential": { "installationEventTypes": ["firstInstallation", "subsequentUpdate"] } }"#
    static let prefetch = #"{ "prefetch": { "installationEventTypes": ["firstInstallation"] } }"#
    static let onDemand = #"{ "onDemand": {} }"#
}
