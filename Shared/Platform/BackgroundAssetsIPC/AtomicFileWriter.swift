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
/// The one whole-file writer of the service and the tools: the service's app records, device
/// settings and pid file, the trusted CAs, the asset server's pack manifest, `ba-package`'s output,
/// and the local CA's certificates and keys. SessionKit, which the app and the extension link, writes
/// the sample's manifest and credentials with `AtomicFile` instead (Foundation's atomic write, the
/// same temporary file, sync and rename), because it must compile with Foundation alone.
public enum AtomicFileWriter {
    /// Writes `data` to a temporary file in `url`'s folder, syncs it, and renames it over `url`.
    ///
    /// The temporary file is in the same folder so `rename(2)` never crosses file systems (where it
    /// would stop being atomic), and it is synced first so a crash of the machine cannot leave an
    /// empty file under the final name. The folder itself is not synced: after a power cut the
    /// rename may be undone, which leaves the old contents, whole. The file has `permissions` from
    /// its first byte, whatever the process's umask, so a private key is never readable by others.
    /// - Returns: The reason for a failure, or `nil` on success; callers wrap it in their own error.
    /// - Parameters:
    ///   - data: The new contents.
    ///   - url: The file to replace; its folder is created if needed.
    ///   - permissions: The file's mode: the owner's only by default, as the device's records are on Apple's platforms.
    public static func write(_ data: Data, to url: URL, permissions: mode_t = 0o600) -> String? {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return "its folder cannot be created (\(reasonText(error)))"
        }
        let temporary = folder.appending(path: ".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        // Created with no access for others at all; the mode asked for is set before the first byte.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return errnoText() }
        var failure = fchmod(descriptor, permissions) == 0 ? nil : errnoText()
        if failure == nil { failure = data.withUnsafeBytes { writeFully(descriptor, $0) } }
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
