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
/// The one whole-file writer of the service and the tools: the service's app records, installed
/// Info.plists, device settings and pid file, the trusted CAs, the asset server's pack manifest,
/// `ba-package`'s output, and the local CA's certificates and keys. SessionKit, which the app and
/// the extension link, writes the sample's manifest and credentials with `AtomicFile` instead
/// (Foundation's atomic write, the same temporary file, sync and rename), because it must compile
/// with Foundation alone.
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
    ///   - followingFolderLink: Whether the file's folder may be a symbolic link, as a tool's output
    ///     folder may; files of the device root pass `false`, and a link there is refused in words.
    public static func write(
        _ data: Data, to url: URL, permissions: mode_t = 0o600, followingFolderLink: Bool = true
    ) -> String? {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return "its folder cannot be created (\(reasonText(error)))"
        }
        // The folder is opened once and the file is created and renamed inside it by descriptor: in
        // the device root, where the folder is never opened through a link, a link put where the
        // folder was cannot send the file elsewhere. A link at the file's own name is replaced by
        // the rename, never written through.
        let folderPath = folder.path.count > 1 && folder.path.hasSuffix("/") ? String(folder.path.dropLast()) : folder.path
        let directory = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (followingFolderLink ? 0 : O_NOFOLLOW))
        guard directory >= 0 else {
            let code = errno
            return LinkRefusingFile.refusedLink(atPath: folderPath).map { "its folder \($0.path) cannot be used: \($0.reason)" }
                ?? errnoText(code)
        }
        defer { close(directory) }
        let name = url.lastPathComponent
        let temporary = ".\(name).\(UUID.random().uuidString).tmp"
        // Created with no access for others at all; the mode asked for is set before the first byte.
        let descriptor = openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return errnoText() }
        var failure = fchmod(descriptor, permissions) == 0 ? nil : errnoText()
        if failure == nil { failure = data.withUnsafeBytes { writeFully(descriptor, $0) } }
        if failure == nil, fsync(descriptor) != 0 { failure = errnoText() }
        close(descriptor)
        if failure == nil, renameat(directory, temporary, directory, name) != 0 { failure = errnoText() }
        if failure != nil { unlinkat(directory, temporary, 0) }
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
