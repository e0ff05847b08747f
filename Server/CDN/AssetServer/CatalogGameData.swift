/*
Abstract:
The game data of the second sample: a small version file and a data archive, generated deterministically or described from a file you bring.
*/

import AssetPackArchive
import AssetPackFormat
import BackgroundAssetsIPC
import Foundation
import SessionKit

/// Writes `game/` into a generated catalog: the data archive a game downloads in the background,
/// and the version file it checks at launch.
///
/// ```
/// game/version.json          {"version":1,"archive":"GameData-v1.aar","size":…,"sha256":"…"}
/// game/GameData-v1.aar       levels and textures, in the asset-pack archive format
/// ```
/// The archive is three times the session size (24 MiB at the default), in eight files, so a
/// transfer lasts long enough to quit the game while it runs; the same size gives the same bytes
/// and SHA-256 on every machine.
struct GameDataCatalogGenerator {
    /// The folder of the catalog the game data lives in, which is also its request path.
    static let folderName = "game"
    /// The version file's name.
    static let versionFileName = "version.json"

    /// The nominal size of a generated session; the archive is three times it.
    let sessionSize: Int64
    /// The data's version.
    var version = 1

    /// The archive's files: path and size.
    func plannedFiles() -> [(path: String, size: Int)] {
        let total = max(Int(min(sessionSize * 3, 1 << 31)), 8 * 1024)
        let level = total / 8
        return (1...6).map { ("Levels/level-\($0).dat", level) } + [("Textures/atlas.dat", level), ("Audio/music.dat", total - 7 * level)]
    }

    /// Writes the archive and its version file into `staging/game/`, which the caller renames into the catalog.
    func generate(inStaging staging: URL) throws {
        let sources = staging.appending(path: "game-sources", directoryHint: .isDirectory)
        let output = staging.appending(path: Self.folderName, directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var files: [AssetPackArchiveWriter.Source] = []
        for file in plannedFiles() {
            let url = sources.appending(path: file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            var content = SyntheticContent(identifier: "game-v\(version)-\(file.path)")
            var bytes = [UInt8](repeating: 0, count: file.size)
            bytes.withUnsafeMutableBytes { content.fill($0) }
            try Data(bytes).write(to: url)
            files.append(.init(path: file.path, file: url))
        }
        let archive = output.appending(path: "GameData-v\(version).aar")
        try AssetPackArchiveWriter.write(
            identity: .init(assetPackID: "GameData", version: version, downloadPolicy: .onDemand, platforms: ["iOS", "macOS"]),
            directories: ["Audio", "Levels", "Textures"], sources: files, to: archive)
        try FileManager.default.removeItem(at: sources)
        let versionFile = try Self.versionFile(describing: archive, version: version)
        if let failure = AtomicFileWriter.write(versionFile, to: output.appending(path: Self.versionFileName)) {
            throw AssetServerError.catalog(path: output.path, reason: "the game's version file cannot be written: \(failure)")
        }
    }

    /// The version file for an archive: its version, its name (relative to the version file), its size and SHA-256.
    static func versionFile(describing archive: URL, version: Int) throws -> Data {
        let handle = try FileHandle(forReadingFrom: archive)
        defer { try? handle.close() }
        var hash = SHA256()
        var size = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hash.update(data: chunk)
            size += chunk.count
        }
        let name = archive.lastPathComponent
        let json = #"{"version":\#(version),"archive":\#(JSONValue.quoted(name)),"size":\#(size),"sha256":"\#(hash.finalize())"}"#
        return Data((json + "\n").utf8)
    }
}

extension Catalog {
    /// The version file describing a game-data archive you bring, to save as `game/version.json` beside it.
    /// - Parameters:
    ///   - archive: The archive.
    ///   - version: Its version; a game downloads it when this is newer than the data it has.
    /// - Throws: ``AssetServerError/catalog(path:reason:)`` when the archive cannot be read.
    public static func gameVersionFile(describing archive: URL, version: Int) throws -> Data {
        do {
            return try GameDataCatalogGenerator.versionFile(describing: archive, version: version)
        } catch {
            throw AssetServerError.catalog(path: archive.path, reason: "it cannot be read: \(error)")
        }
    }
}
