/*
Abstract:
The one file per process that targets whose parser reads a path write their input to.
*/

import Foundation

/// A private folder for the targets that parse a file rather than bytes.
enum ScratchFile {
    /// One folder per process, so parallel fuzzing jobs never read each other's inputs.
    private static let folder: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ba-fuzz-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// The path of a scratch file in this process's folder.
    static func url(named name: String) -> URL {
        folder.appendingPathComponent(name)
    }

    /// Removes the folder when the replay tool or the fuzzer is done.
    static func removeAll() {
        try? FileManager.default.removeItem(at: folder)
    }
}
