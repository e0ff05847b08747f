/*
Abstract:
Whole-file writes that readers never see half done: Foundation's atomic write, with the folder made first.
*/

import Foundation

/// Writes files so that a reader sees either the old contents or the new, never a mix.
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

/// The text of the current `errno`, for the few POSIX calls SessionKit makes.
func errnoText() -> String { String(cString: strerror(errno)) }
