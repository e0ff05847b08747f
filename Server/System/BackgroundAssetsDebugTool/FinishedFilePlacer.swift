/*
Abstract:
Puts a finished download from the app group container where the person asked for it.
*/

import BackgroundAssetsIPC
import Foundation

/// Puts the handed-over file at `--output`: a hard link on the same file system, else a copy.
///
/// The file is linked, not moved, because several runs may follow the same download and each is
/// handed the same file: every one of them gets it at its own output, and the service deletes the
/// handed-over name once all have acknowledged it.
enum FinishedFilePlacer {
    /// Puts `source` at `destination`, replacing a file already there, atomically for readers of `destination`.
    /// - Throws: ``DebugToolError`` naming both paths.
    static func place(_ source: URL, at destination: URL) throws {
        // Beside the destination first, so it appears whole or not at all.
        let temporary = destination.deletingLastPathComponent()
            .appending(path: ".\(destination.lastPathComponent).\(getpid()).partial")
        unlink(temporary.path)
        if link(source.path, temporary.path) == 0 {
            let renamed = rename(temporary.path, destination.path) == 0
            let reason = errnoText()
            // rename(2) does nothing when both names are links to one file, as when another run
            // placed the same download at the same output first: the temporary name must go either way.
            unlink(temporary.path)
            guard renamed else { throw failure(source, destination, reason) }
            return
        }
        // Another file system (or one without hard links): copy.
        guard errno == EXDEV || errno == EPERM || errno == EMLINK else { throw failure(source, destination, errnoText()) }
        do {
            try? FileManager.default.removeItem(at: temporary)
            try FileManager.default.copyItem(at: source, to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw failure(source, destination, reasonText(error))
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = errnoText()
            unlink(temporary.path)
            throw failure(source, destination, reason)
        }
    }

    private static func failure(_ source: URL, _ destination: URL, _ reason: String) -> DebugToolError {
        DebugToolError("The finished file \(source.path) could not be moved to \(destination.path) (\(reason)); "
            + "check that the folder is writable and has room, then run the command again.")
    }
}
