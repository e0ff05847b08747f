/*
Abstract:
The catalog folder: an existing manifest, a manifest built from media files, or a freshly generated synthetic catalog.
*/

import Foundation
import SessionKit

/// A catalog folder ready to serve, with the manifest that describes it.
public struct Catalog: Sendable {
    /// Where the catalog came from.
    public enum Origin: Sendable, Equatable {
        /// The folder already had a `manifest.json`; it was validated and left untouched.
        case existingManifest
        /// The folder held media files and no manifest; one was built from the files.
        case mediaFiles
        /// The folder had neither; a synthetic catalog was generated.
        case generated
    }

    /// The number of sessions generated when none is specified.
    public static let defaultSessionCount = 12
    /// The nominal size of a generated session file: 8 MiB.
    public static let defaultSessionSize: Int64 = 8 * 1024 * 1024
    /// The manifest's file name inside the catalog folder, which is also its request path.
    public static let manifestFileName = "manifest.json"

    /// The catalog folder.
    public let directory: URL
    /// The manifest, with session URLs relative to the manifest's own URL.
    public let manifest: Manifest
    /// Where the catalog came from.
    public let origin: Origin

    /// Makes `directory` servable: uses its manifest, or builds one from its media files, or generates a catalog.
    ///
    /// Generation is deterministic: the same count and size give byte-identical files and manifest on every
    /// machine. Files are written to a hidden staging folder and renamed into place, and the manifest is written
    /// last, so an interrupted run never leaves a manifest describing missing or partial files; the next run
    /// notices the leftover staging folder and generates again.
    /// - Parameters:
    ///   - directory: The catalog folder; created if missing.
    ///   - sessionCount: How many sessions to generate, at least 1.
    ///   - sessionSize: The nominal size of each generated file; actual sizes spread a quarter either way.
    /// - Throws: ``AssetServerError/catalog(path:reason:)`` when the folder, its manifest or its files are unusable.
    public static func prepare(
        at directory: URL,
        sessionCount: Int = defaultSessionCount,
        sessionSize: Int64 = defaultSessionSize
    ) throws -> Catalog {
        let manifestURL = directory.appending(path: manifestFileName)
        let stagingURL = directory.appending(path: CatalogGenerator.stagingFolderName, directoryHint: .isDirectory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if FileManager.default.fileExists(atPath: manifestURL.path) {
                return Catalog(directory: directory, manifest: try Manifest.load(from: manifestURL),
                               origin: .existingManifest)
            }
            if !FileManager.default.fileExists(atPath: stagingURL.path) {
                let media = MediaCatalogBuilder.mediaFiles(in: directory)
                if !media.isEmpty {
                    let manifest = try MediaCatalogBuilder.manifest(for: media, in: directory)
                    try manifest.save(to: manifestURL)
                    return Catalog(directory: directory, manifest: manifest, origin: .mediaFiles)
                }
            }
            let generator = CatalogGenerator(sessionCount: sessionCount, sessionSize: sessionSize)
            return Catalog(directory: directory, manifest: try generator.generate(in: directory), origin: .generated)
        } catch let error as AssetServerError {
            throw error
        } catch {
            throw AssetServerError.catalog(path: directory.path, reason: "\(error)")
        }
    }
}
