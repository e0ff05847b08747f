/*
Abstract:
Generates the catalog's asset packs: an essential, a prefetch and an on-demand pack, archives and download manifest.
*/

import AssetPackArchive
import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

/// Writes `asset-packs/` into a generated catalog: three packs in each download policy, the
/// archives, and their download manifest, all deterministic like the sessions.
///
/// ```
/// asset-packs/manifest.json           the download manifest (relative URLs)
/// asset-packs/SessionResources.aar    essential: the session list the app needs at its first launch
/// asset-packs/Transcripts.aar         prefetch: a transcript per session, right after the install
/// asset-packs/Slides-WWDC23.aar       on demand: the slides of each session, when the app opens it
/// ```
struct AssetPackCatalogGenerator {
    /// The folder of the catalog the packs live in, which is also their request path.
    static let folderName = "asset-packs"

    /// The sessions the packs describe, `(id, title)`; at most the named WWDC23 sessions, so packs stay small.
    let sessions: [(id: String, title: String)]

    /// The packs: identifier, policy, and the files each holds (path to contents).
    func plannedPacks() -> [(id: String, policy: AssetPackDownloadPolicy, files: [(path: String, bytes: Data)])] {
        let list = sessions.map { #"{"id":"\#($0.id)","title":"\#($0.title)"}"# }.joined(separator: ",")
        let resources: [(String, Data)] = [
            ("Resources/sessions.json", Data("[\(list)]\n".utf8)),
            ("Resources/artwork.heic", Self.synthetic("artwork", size: 24 * 1024)),
        ]
        let transcripts = sessions.map { session in
            ("Transcripts/\(session.id).txt", Data("\(session.title)\n\n".utf8) + Self.synthetic("transcript-\(session.id)", size: 2048))
        }
        let slides = sessions.map { ("Slides/\($0.id).pdf", Self.synthetic("slides-\($0.id)", size: 48 * 1024)) }
        return [
            ("SessionResources", .essential(installationEventTypes: [.firstInstallation, .subsequentUpdate]), resources),
            ("Transcripts", .prefetch(installationEventTypes: [.firstInstallation]), transcripts),
            ("Slides-WWDC23", .onDemand, slides),
        ]
    }

    /// Writes the packs into `staging/asset-packs/`, which the caller renames into the catalog.
    /// - Returns: The download manifest written.
    @discardableResult
    func generate(inStaging staging: URL) throws -> AssetPackDownloadManifest {
        let sources = staging.appending(path: "asset-pack-sources", directoryHint: .isDirectory)
        let output = staging.appending(path: Self.folderName, directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var archives: [URL] = []
        for pack in plannedPacks() {
            var files: [AssetPackArchiveWriter.Source] = []
            for file in pack.files {
                let url = sources.appending(path: pack.id).appending(path: file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.bytes.write(to: url)
                files.append(.init(path: file.path, file: url))
            }
            let archive = output.appending(path: "\(pack.id).aar")
            try AssetPackArchiveWriter.write(
                identity: .init(assetPackID: pack.id, version: 1, downloadPolicy: pack.policy, platforms: ["iOS", "macOS"]),
                directories: Array(Set(pack.files.map { String($0.path.split(separator: "/")[0]) })).sorted(),
                sources: files, to: archive)
            archives.append(archive)
        }
        let manifest = try AssetPackDownloadManifestBuilder.manifest(for: archives, downloadBaseURL: nil, manifestFolder: output)
        if let failure = AtomicFileWriter.write(manifest.encoded(), to: output.appending(path: Catalog.manifestFileName)) {
            throw AssetServerError.catalog(path: output.path, reason: "the asset-pack manifest cannot be written: \(failure)")
        }
        try FileManager.default.removeItem(at: sources)
        return manifest
    }

    /// Deterministic bytes named after `seed`.
    private static func synthetic(_ seed: String, size: Int) -> Data {
        var content = SyntheticContent(identifier: seed)
        var bytes = [UInt8](repeating: 0, count: size)
        bytes.withUnsafeMutableBytes { content.fill($0) }
        return Data(bytes)
    }
}
