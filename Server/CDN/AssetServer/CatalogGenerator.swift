/*
Abstract:
Generates the synthetic catalog: WWDC23-named sessions with deterministic bytes, sizes and checksums.
*/

import BackgroundAssetsIPC
import Foundation
import SessionKit

/// Writes a deterministic catalog of synthetic session files and its manifest.
struct CatalogGenerator {
    /// The hidden folder generation writes into before anything is renamed into place.
    static let stagingFolderName = ".generating"
    /// Generated files live here, relative to the catalog (and to the manifest's URL).
    static let sessionsFolderName = "sessions"

    var sessionCount: Int
    var sessionSize: Int64

    /// The sessions the catalog will contain, without checksums: identifiers, titles, sizes, essential flags.
    func plannedSessions() -> [(id: String, title: String, size: Int64, essential: Bool)] {
        (0..<sessionCount).map { index in
            let session = SessionTitles.session(at: index)
            // The first two are essential: the app cannot launch until they are on disk.
            return (session.id, session.title, SyntheticContent.size(for: session.id, around: sessionSize), index < 2)
        }
    }

    /// Generates every file, renames them into `directory/sessions/`, then saves the manifest.
    func generate(in directory: URL) throws -> Manifest {
        let fileManager = FileManager.default
        let staging = directory.appending(path: Self.stagingFolderName, directoryHint: .isDirectory)
        let sessionsFolder = directory.appending(path: Self.sessionsFolderName, directoryHint: .isDirectory)
        try? fileManager.removeItem(at: staging)
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
        try fileManager.createDirectory(at: sessionsFolder, withIntermediateDirectories: true)

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var sessions: [Session] = []
        for planned in plannedSessions() {
            let name = "\(planned.id).mp4"
            let digest = try Self.writeContent(for: planned.id, size: planned.size,
                                               to: staging.appending(path: name), buffer: buffer)
            sessions.append(Session(id: planned.id, title: planned.title,
                                    url: URL(string: "\(Self.sessionsFolderName)/\(name)")!,
                                    fileSize: Int(planned.size), sha256: digest, essential: planned.essential))
        }
        // Synced before the renames and the manifest, so even a power cut cannot pair a manifest with
        // lost data: once for everything, where an fsync of each file made 100,000 sessions take
        // minutes. (`sync(2)`: Glibc's Swift module does not declare `syncfs`.)
        sync()
        for session in sessions {
            let name = "\(session.id).mp4"
            guard rename(staging.appending(path: name).path, sessionsFolder.appending(path: name).path) == 0 else {
                throw AssetServerError.catalog(path: sessionsFolder.appending(path: name).path, reason: errnoText())
            }
        }
        try generateAssetPacks(staging: staging, catalog: directory)
        try generateGameData(staging: staging, catalog: directory)
        let manifest = Manifest(version: 1, sessions: sessions)
        try manifest.save(to: directory.appending(path: Catalog.manifestFileName))
        try fileManager.removeItem(at: staging)
        return manifest
    }

    /// Generates the asset packs and renames their folder into the catalog, before the manifest is written.
    private func generateAssetPacks(staging: URL, catalog directory: URL) throws {
        let named = SessionTitles.wwdc23.prefix(sessionCount).map { (id: $0.id, title: $0.title) }
        try generateFolder(AssetPackCatalogGenerator.folderName, what: "asset packs", staging: staging, catalog: directory) {
            try AssetPackCatalogGenerator(sessions: Array(named)).generate(inStaging: staging)
        }
    }

    /// Generates the game data of the second sample and renames its folder into the catalog.
    private func generateGameData(staging: URL, catalog directory: URL) throws {
        try generateFolder(GameDataCatalogGenerator.folderName, what: "game data", staging: staging, catalog: directory) {
            try GameDataCatalogGenerator(sessionSize: sessionSize).generate(inStaging: staging)
        }
    }

    /// Runs a generator that writes `staging/name/`, then renames that folder into the catalog.
    private func generateFolder(_ name: String, what: String, staging: URL, catalog directory: URL,
                                generate: () throws -> Void) throws {
        do {
            try generate()
        } catch let error as AssetServerError {
            throw error
        } catch {
            throw AssetServerError.catalog(path: directory.path, reason: "its \(what) cannot be generated: \(error)")
        }
        let folder = directory.appending(path: name, directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: folder)
        guard rename(staging.appending(path: name).path, folder.path) == 0 else {
            throw AssetServerError.catalog(path: folder.path, reason: errnoText())
        }
    }

    /// Writes `size` synthetic bytes for `identifier` to `url` and returns their SHA-256; the caller syncs them.
    static func writeContent(for identifier: String, size: Int64, to url: URL,
                             buffer: UnsafeMutableRawBufferPointer) throws -> String {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw AssetServerError.catalog(path: url.path, reason: errnoText()) }
        defer { close(descriptor) }
        var content = SyntheticContent(identifier: identifier)
        var hash = SHA256()
        var remaining = size
        while remaining > 0 {
            let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(min(Int64(buffer.count), remaining))])
            content.fill(chunk)
            hash.update(bytes: UnsafeRawBufferPointer(chunk))
            var written = 0
            while written < chunk.count {
                let count = write(descriptor, chunk.baseAddress! + written, chunk.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw AssetServerError.catalog(path: url.path, reason: errnoText()) }
                written += count
            }
            remaining -= Int64(chunk.count)
        }
        return hash.finalize()
    }
}
