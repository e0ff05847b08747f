/*
Abstract:
Whole-file writes that readers never see half done: write a temporary file beside the target, sync, rename.
*/

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
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appending(path: ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        func failure(_ reason: String) -> SessionKitError {
            .fileUnwritable(path: url.path, reason: reason)
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw failure(error.localizedDescription)
        }
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(errnoText()) }
        let reason = data.withUnsafeBytes { writeFully(descriptor, $0) } ?? (fsync(descriptor) == 0 ? nil : errnoText())
        close(descriptor)
        if let reason {
            unlink(temporary.path)
            throw failure(reason)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = errnoText()
            unlink(temporary.path)
            throw failure(reason)
        }
    }
}

/// Writes every byte of `buffer`, retrying short writes and interruptions; returns the error text on failure.
private func writeFully(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> String? {
    var written = 0
    while written < buffer.count {
        let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
        if count < 0 {
            if errno == EINTR { continue }
            return errnoText()
        }
        written += count
    }
    return nil
}

/// The text of the current `errno`.
func errnoText() -> String { String(cString: strerror(errno)) }
