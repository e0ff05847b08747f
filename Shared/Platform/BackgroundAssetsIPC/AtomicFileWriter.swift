/*
Abstract:
Whole-file replacement: a synced temporary file beside the target, then rename, for every file other processes read.
*/

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces files so a reader, or a process restarted after a crash, sees the old contents or the new, never a mix.
///
/// Used for the service's records and settings and for the sample's manifest in the app group.
public enum AtomicFileWriter {
    /// Writes `data` to a temporary file in `url`'s folder, syncs it, and renames it over `url`.
    ///
    /// The temporary file is in the same folder so `rename(2)` never crosses file systems (where it
    /// would stop being atomic), and it is synced first so a crash cannot leave an empty file
    /// under the final name.
    /// - Returns: The reason for a failure, or `nil` on success; callers wrap it in their own error.
    /// - Parameters:
    ///   - data: The new contents.
    ///   - url: The file to replace; its folder is created if needed.
    public static func write(_ data: Data, to url: URL) -> String? {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return "its folder cannot be created (\(error.localizedDescription))"
        }
        let temporary = folder.appending(path: ".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        // Owner only: these are the service's records and an app's files, private as on Apple's platforms.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return errnoText() }
        var failure = data.withUnsafeBytes { writeFully(descriptor, $0) }
        if failure == nil, fsync(descriptor) != 0 { failure = errnoText() }
        close(descriptor)
        if failure == nil, rename(temporary, url.path) != 0 { failure = errnoText() }
        if failure != nil { unlink(temporary) }
        return failure
    }

    /// Writes every byte, retrying short writes and interruptions.
    private static func writeFully(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> String? {
        var written = 0
        while written < buffer.count, let base = buffer.baseAddress {
            let count = Foundation.write(descriptor, base + written, buffer.count - written)
            if count < 0 {
                if errno == EINTR { continue }
                return errnoText()
            }
            written += count
        }
        return nil
    }

}
