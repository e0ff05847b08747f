/*
Abstract:
The catalog folder: an existing manifest, a manifest built from media files, or a freshly generated synthetic catalog.
*/

import AssetPackFormat
import Foundation
import SessionKit

/// A catalog folder ready to serve, with the manifest that describes it.
public struct Catalog: Sendable {
    /// Where the catalog came from.
    public enum Origin: Sendable, Equatable {
        /// The folder already had a `manifest.json`; it was validated and left untouched.
        case existingManifest
        /// The folder held files and no manifest: it is served as it is, nothing is written into it,
        /// and ``Catalog/manifest`` is empty (``Catalog/manifestDescribingMedia(in:)`` builds one).
        case servedAsIs
        /// The folder had neither; a synthetic catalog was generated.
        case generated
        /// The folder's `manifest.json` is a download manifest of asset packs (`ba-package download-manifest
        /// create`); the folder is served as it is, with an empty session ``Catalog/manifest``.
        case assetPacks(count: Int)
    }

    /// The number of sessions generated when none is specified.
    public static let defaultSessionCount = 12
    /// The most sessions a catalog is generated with: their manifest (about 260 bytes a session,
    /// 52 MB) stays under the 64 MiB a device accepts for a manifest.
    public static let maximumSessionCount = 200_000
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

    /// Makes `directory` servable: uses its manifest, serves a folder of files as it is, or generates a
    /// catalog into a missing or empty folder.
    ///
    /// A folder that already holds files is never written into: without a `manifest.json` it is served
    /// as it is, with an empty ``manifest``.
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
                if let packs = assetPackManifest(at: manifestURL) {
                    return Catalog(directory: directory, manifest: Manifest(version: 1, sessions: []),
                                   origin: .assetPacks(count: packs.assetPacks.count))
                }
                return Catalog(directory: directory, manifest: try Manifest.load(from: manifestURL),
                               origin: .existingManifest)
            }
            // A leftover staging folder is this server's own interrupted generation: generate again.
            let entries = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            if !entries.isEmpty, !FileManager.default.fileExists(atPath: stagingURL.path) {
                return Catalog(directory: directory, manifest: Manifest(version: 1, sessions: []), origin: .servedAsIs)
            }
            let generator = CatalogGenerator(sessionCount: sessionCount, sessionSize: sessionSize)
            return Catalog(directory: directory, manifest: try generator.generate(in: directory), origin: .generated)
        } catch let error as AssetServerError {
            throw error
        } catch {
            throw AssetServerError.catalog(path: directory.path, reason: "\(error)")
        }
    }

    /// The download manifest of asset packs at `url`, when that is what the file is.
    private static func assetPackManifest(at url: URL) -> AssetPackDownloadManifest? {
        guard let data = try? Data(contentsOf: url), data.count <= 16 << 20 else { return nil }
        return try? AssetPackDownloadManifest(parsing: data, source: url.path)
    }

    /// A manifest listing the media files of a folder (audio and video, hidden files skipped), with
    /// sizes and SHA-256 digests read from the files; nothing is written.
    /// - Parameter directory: The folder.
    /// - Throws: ``AssetServerError/catalog(path:reason:)`` when a file cannot be read.
    public static func manifestDescribingMedia(in directory: URL) throws -> Manifest {
        do {
            return try MediaCatalogBuilder.manifest(for: MediaCatalogBuilder.mediaFiles(in: directory), in: directory)
        } catch let error as AssetServerError {
            throw error
        } catch {
            throw AssetServerError.catalog(path: directory.path, reason: "\(error)")
        }
    }
}
