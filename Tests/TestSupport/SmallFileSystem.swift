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

    /// Fills all but `bytesLeft` of its free space with a file named `fill`.
    /// - Throws: An error when the file cannot be written.
    public func fill(leaving bytesLeft: Int) throws {
        var status = statvfs()
        guard statvfs(url.path, &status) == 0 else { throw TestSupportError("statvfs \(url.path): errno \(errno)") }
        let free = Int(status.f_bavail) * Int(status.f_frsize)
        try Data(count: max(0, free - bytesLeft)).write(to: url.appending(path: "fill"))
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
