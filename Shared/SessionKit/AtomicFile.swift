/*
Abstract:
Whole-file writes that readers never see half done: write a temporary file beside the target, sync, rename.
*/

import BackgroundAssetsIPC
import Foundation

/// Writes files so that a reader sees either the old contents or the new, never a mix.
public enum AtomicFile {
    /// Replaces the file at `url` with `data`.
    ///
    /// The temporary file lives in the same folder so the final `rename(2)` never crosses file
    /// systems, and it is synced first so a crash cannot leave an empty file under the final name.
    /// - Parameters:
    ///   - data: The new contents.
    ///   - url: The file to replace; its folder is created if needed.
    /// - Throws: ``SessionKitError/fileUnwritable(path:reason:)``.
    public static func write(_ data: Data, to url: URL) throws {
        if let reason = AtomicFileWriter.write(data, to: url) {
            throw SessionKitError.fileUnwritable(path: url.path, reason: reason)
        }
    }
}

/// The text of the current `errno`.
func errnoText() -> String { String(cString: strerror(errno)) }
