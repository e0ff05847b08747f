/*
Abstract:
A finished download the tool could not place at --output, kept in its container until a later run can.
*/

import BackgroundAssetsIPC
import Foundation

/// Where `download` keeps a finished file it could not put at `--output` (a full disk, a folder
/// that is not writable), so the bytes are not fetched again.
///
/// The handed-over file is renamed into the tool's own app group container, `Kept/IDENTIFIER`: a
/// rename in the same file system, which needs no free space, so it works when the copy did not.
/// The download's identifier comes from the URL and the output path, so the same command run again
/// finds the kept file and places it before asking the service for anything.
struct KeptDownload {
    /// The kept file.
    let file: URL

    /// The kept file of a download, whether or not it exists.
    /// - Returns: `nil` when the identifier cannot be a file name.
    init?(identifier: String, paths: DevicePaths) {
        guard DevicePaths.isSafePathComponent(identifier),
            let container = paths.container(forAppGroup: ToolContext.applicationGroupIdentifier)
        else { return nil }
        file = container.appending(path: "Kept/\(identifier)", directoryHint: .notDirectory)
    }

    /// Whether a file is kept.
    var exists: Bool { FileManager.default.fileExists(atPath: file.path) }

    /// Moves a handed-over file here before the service deletes it.
    /// - Returns: Whether it was kept.
    func keep(_ handedOver: URL) -> Bool {
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        return rename(handedOver.path, file.path) == 0
    }

    /// Places the kept file at `destination` and forgets it.
    /// - Throws: ``DebugToolError`` when it cannot be placed; the file stays kept.
    func place(at destination: URL) throws {
        try FinishedFilePlacer.place(file, at: destination)
        unlink(file.path)
    }
}
