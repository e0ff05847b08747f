/*
Abstract:
The last manifest read from the app group, kept while its file stays the same.
*/

import Foundation

/// Remembers the manifest last loaded from (or saved to) a file, and loads it again only when the file changed.
///
/// The extension matches every finished download against the saved manifest; with a thousand
/// sessions, decoding and validating it for each download took longer than the download itself.
/// Manifests are saved by renaming a new file over the old one, so a save always changes the
/// file's inode, and an edit in place its size or modification date: any of those reloads it.
final class LocalManifestCache: @unchecked Sendable {
    /// The cache of this process.
    static let shared = LocalManifestCache()

    private struct Entry {
        let version: FileStatus
        let manifest: Manifest
    }

    /// A process reads one app group's manifest; a few more paths are kept for tools and tests.
    private static let maximumEntries = 8

    // Foundation's lock rather than Synchronization's Mutex: SessionKit imports Foundation only,
    // so it copies into an Xcode project unchanged. It guards `entries`, hence the unchecked Sendable.
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    /// The manifest in a file, decoded and validated, or the one decoded last time if the file is the same.
    /// - Parameter url: The manifest file.
    /// - Returns: The manifest, or `nil` when there is no such file.
    /// - Throws: ``SessionKitError`` when the file can't be read or is not a valid manifest.
    func manifest(at url: URL) throws -> Manifest? {
        // The version is read before the bytes: if a save replaces the file in between, the new
        // bytes are kept under the old version, and the next call sees a version it doesn't have.
        guard let version = FileStatus(path: url.path) else {
            // No such file, or one it can't look at: then loading it says why.
            return FileManager.default.fileExists(atPath: url.path) ? try Manifest.load(from: url) : nil
        }
        if let cached = lock.withLock({ entries[url.path] }), cached.version == version {
            return cached.manifest
        }
        let manifest = try Manifest.load(from: url)
        remember(manifest, version: version, at: url)
        return manifest
    }

    /// Keeps a manifest as the contents of a file's version, such as the one this process just saved.
    func remember(_ manifest: Manifest, version: FileStatus, at url: URL) {
        lock.withLock {
            if entries.count >= Self.maximumEntries, entries[url.path] == nil { entries.removeAll() }
            entries[url.path] = Entry(version: version, manifest: manifest)
        }
    }
}
