/*
Abstract:
Moving a finished download's file out of the system's hands, and recording where it went.
*/

import Foundation

extension LifecycleCallRecord {
    /// Records whether a finished download's file exists, then moves it into a folder and records where.
    ///
    /// The system deletes the file when the finished callback returns, so the app's delegate and the
    /// extension both move it before they return. A file already at the destination is replaced; a
    /// move that fails leaves `movedTo` empty and records the error's message instead.
    /// - Parameters:
    ///   - fileURL: The file the finished callback was given.
    ///   - folder: Where finished files are kept; created when missing.
    ///   - name: The name to give it there: the download's identifier.
    public mutating func moveFinishedFile(at fileURL: URL, into folder: URL, as name: String) {
        fileExists = FileManager.default.fileExists(atPath: fileURL.path)
        let destination = folder.appending(path: name)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.moveItem(at: fileURL, to: destination)
            movedTo = destination.path
        } catch {
            errorMessage = "\(error)"
        }
    }
}
