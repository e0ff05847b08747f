/*
Abstract:
Moves a finished download from the app group container to where the person asked for it.
*/

import BackgroundAssetsIPC
import Foundation

/// Moves the handed-over file to `--output`: a rename on the same file system, else copy then rename.
enum FinishedFileMover {
    /// Moves `source` to `destination`, replacing a file already there, atomically for readers of `destination`.
    /// - Throws: ``DebugToolError`` naming both paths.
    static func move(_ source: URL, to destination: URL) throws {
        if rename(source.path, destination.path) == 0 { return }
        guard errno == EXDEV else { throw failure(source, destination, errnoText()) }
        // Another file system: copy beside the destination first, so it appears whole or not at all.
        let temporary = destination.deletingLastPathComponent()
            .appending(path: ".\(destination.lastPathComponent).\(getpid()).partial")
        do {
            try? FileManager.default.removeItem(at: temporary)
            try FileManager.default.copyItem(at: source, to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw failure(source, destination, error.localizedDescription)
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = errnoText()
            unlink(temporary.path)
            throw failure(source, destination, reason)
        }
        unlink(source.path)
    }

    private static func failure(_ source: URL, _ destination: URL, _ reason: String) -> DebugToolError {
        DebugToolError("The finished file \(source.path) could not be moved to \(destination.path) (\(reason)); "
            + "check that the folder is writable and has room, then run the command again.")
    }
}
