/*
Abstract:
A tmpfs of a few mebibytes mounted for one test, to fill a disk for real.
*/

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs mounted on a temporary folder, so a test can run out of disk space for real
/// (`ENOSPC` from the kernel, not a simulation) or make a file system read-only.
///
/// Mounting needs root (CI runs as root); ``isAvailable`` tells a test to skip where it cannot.
/// Unmount with ``unmount()``, which also runs on deinit.
public final class SmallFileSystem: Sendable {
    /// Where it is mounted.
    public let url: URL
    private let folder: TemporaryDirectory

    /// Whether this process can mount one: checked once, by mounting one.
    public static let isAvailable: Bool = {
        guard geteuid() == 0, let probe = try? SmallFileSystem(size: 1 << 20) else { return false }
        probe.unmount()
        return true
    }()

    /// Mounts a tmpfs of `size` bytes.
    /// - Throws: `TestSupportError` when it cannot be mounted.
    public init(size: Int) throws {
        folder = try TemporaryDirectory(prefix: "small-fs")
        url = folder.url
        try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0755", "tmpfs", url.path])
    }

    deinit {
        unmount()
    }

    /// Makes it read-only, or writable again.
    /// - Throws: `TestSupportError` when the remount fails.
    public func setReadOnly(_ readOnly: Bool) throws {
        try Self.run("/bin/mount", ["-o", "remount,\(readOnly ? "ro" : "rw")", url.path])
    }

    /// Unmounts it (lazily, should a test's process still use it); calling it again does nothing.
    public func unmount() {
        try? Self.run("/bin/umount", ["-l", url.path])
    }

    /// Fills all but `bytesLeft` of its free space with a file named `fill`; with 0, until a write
    /// fails for want of space (other processes may be writing to it meanwhile).
    /// - Throws: An error when the file cannot be written for another reason.
    public func fill(leaving bytesLeft: Int) throws {
        var status = statvfs()
        guard statvfs(url.path, &status) == 0 else { throw TestSupportError("statvfs \(url.path): errno \(errno)") }
        let free = Int(status.f_bavail) * Int(status.f_frsize)
        let target = bytesLeft > 0 ? max(0, free - bytesLeft) : Int.max
        let descriptor = open(url.appending(path: "fill").path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw TestSupportError("open fill: errno \(errno)") }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0, count: 65_536)
        var written = 0
        while written < target {
            let count = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, min(chunk.count, target - written)) }
            if count < 0, errno == ENOSPC { break }
            guard count > 0 else { throw TestSupportError("write fill: errno \(errno)") }
            written += count
        }
    }

    /// Frees the space ``fill(leaving:)`` took.
    public func freeSpace() {
        unlink(url.appending(path: "fill").path)
    }

    private static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestSupportError("\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus).")
        }
    }
}
