/*
Abstract:
Whole-file writes that readers never see half done: Foundation's atomic write, with the folder made first.
*/

import Foundation

/// Writes files so that a reader sees either the old contents or the new, never a mix.
///
/// The service and the tools have their own writer, `AtomicFileWriter` in `BackgroundAssetsIPC`;
/// SessionKit cannot use it, because it compiles in an Xcode project with Foundation alone. The
/// durability is the same: Foundation's atomic write (swift-foundation, on Linux as on Apple
/// platforms) also writes a temporary file beside the target, syncs it, and renames it over the
/// old one. What differs is the mode: Foundation keeps an existing file's, and gives a new file the
/// process's default, as an app's files have on Apple platforms; callers that need a private file
/// set its mode afterwards (``ServerCredentials/save(to:)``).
public enum AtomicFile {
    /// Replaces the file at `url` with `data`.
    ///
    /// Foundation writes a temporary file beside the target and renames it over the old one, so the
    /// app and the extension, which share these files, never read a partial manifest.
    /// - Parameters:
    ///   - data: The new contents.
    ///   - url: The file to replace; its folder is created if needed.
    /// - Throws: ``SessionKitError/fileUnwritable(path:reason:)``.
    public static func write(_ data: Data, to url: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw SessionKitError.fileUnwritable(path: url.path, reason: error.localizedDescription)
        }
    }
}
