/*
Abstract:
Reading asset files: every downloaded pack shares one namespace of relative paths.
*/

import AssetPackFormat
import Foundation

extension AssetPackManager {
    /// Returns the contents of an asset file at the specified relative path.
    ///
    /// All asset packs share the same namespace, so you can treat the downloaded packs as one root
    /// folder. If two packs have a file at the same path, which one is read is undefined unless you
    /// pass an `assetPackID`.
    /// - Parameters:
    ///   - path: The relative path.
    ///   - assetPackID: The ID of the asset pack in which to search for the file; by default, all
    ///     downloaded asset packs are searched.
    ///   - options: Options for how to read the contents of the file into a `Data` instance.
    /// - Returns: The file's contents.
    /// - Throws: ``ManagedBackgroundAssetsError/fileNotFound(at:)`` when no file is found at `path`,
    ///   ``ManagedBackgroundAssetsError/assetPackNotFound(withID:)`` when the named pack is not
    ///   downloaded, or an error when the path is not relative or the file cannot be read.
    public nonisolated func contents(at path: FilePath, searchingInAssetPackWithID assetPackID: String? = nil,
                                     options: Data.ReadingOptions = .mappedIfSafe) throws -> Data {
        let file = try AssetPackFileResolver(layout: try layout()).file(at: path, inPack: assetPackID)
        return try Data(contentsOf: file, options: options)
    }

    /// Opens and returns a file descriptor for an asset file at the specified relative path.
    ///
    /// It's your responsibility to close the file descriptor when you're done using it.
    /// - Parameters:
    ///   - path: The relative path.
    ///   - assetPackID: The ID of the asset pack in which to search for the file; by default, all
    ///     downloaded asset packs are searched.
    /// - Returns: A descriptor for the opened file, read-only.
    /// - Throws: As ``contents(at:searchingInAssetPackWithID:options:)`` does.
    public nonisolated func descriptor(for path: FilePath, searchingInAssetPackWithID assetPackID: String? = nil) throws
        -> FileDescriptor
    {
        let file = try AssetPackFileResolver(layout: try layout()).file(at: path, inPack: assetPackID)
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return FileDescriptor(rawValue: descriptor)
    }

    /// Returns a URL for the specified relative path.
    ///
    /// Unlike ``contents(at:searchingInAssetPackWithID:options:)``, this resolves folders too. A
    /// folder that several packs contain is returned as one folder merging them, made for this
    /// process: don't keep the URL beyond the process's lifetime. The URL is well formed even when
    /// no pack has the item; reading it then fails.
    /// - Parameter path: The relative path.
    /// - Returns: The URL to the item.
    /// - Throws: An error when the path is not relative, or leaves the packs' namespace.
    public nonisolated func url(for path: FilePath) throws -> URL {
        try AssetPackFileResolver(layout: try layout()).url(for: path)
    }
}
