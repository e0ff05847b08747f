/*
Abstract:
Opens, reads and restricts files under the device root without ever following a symbolic link.
*/

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way the service, the device log and the tools open a file of the device root they did
/// not just create under a fresh name.
///
/// The service often runs as root. A symbolic link planted at `system/log` or `system/trace.jsonl`
/// would otherwise have it append to, create, or change the mode of any file on the machine, so
/// every open here passes `O_NOFOLLOW`, every mode change `AT_SYMLINK_NOFOLLOW`, and a link found
/// where a file belongs is reported, naming the link and what to do, instead of followed.
public enum LinkRefusingFile {
    /// Why a file of the device root could not be used, in a sentence that names it and the next step.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file that was refused or could not be opened.
        public let path: String
        /// Where the link points, when the file is a symbolic link, the reason it was refused.
        public let linkTarget: String?
        /// Why, as a clause about the file for the middle of a sentence: "it is a symbolic link (to …)".
        public let reason: String

        /// Whether the file was refused because it is a symbolic link.
        public var isLink: Bool { linkTarget != nil }

        public var description: String { "\(path) cannot be used: \(reason)." }

        init(path: String, linkTarget: String) {
            self.path = path
            self.linkTarget = linkTarget
            reason = "it is a symbolic link (to \(linkTarget)), which the service never follows in its device root; "
                + "remove the link"
        }

        init(path: String, reason: String) {
            self.path = path
            linkTarget = nil
            self.reason = reason
        }
    }

    /// Opens a file, never through a link at its own name.
    /// - Parameters:
    ///   - url: The file.
    ///   - flags: The `open(2)` flags; `O_NOFOLLOW` and `O_CLOEXEC` are added.
    ///   - mode: The mode of a file `O_CREAT` creates.
    /// - Returns: The open descriptor, which the caller closes.
    /// - Throws: ``Failure``, with ``Failure/linkTarget`` set when the file is a symbolic link.
    public static func open(_ url: URL, flags: Int32, mode: mode_t = 0o600) throws(Failure) -> Int32 {
        let descriptor = Foundation.open(url.path, flags | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure(url.path, errno) }
        return descriptor
    }

    /// Reads a whole regular file, never through a link.
    /// - Parameters:
    ///   - url: The file.
    ///   - limit: The largest size accepted, so a huge file is refused before it is read.
    /// - Returns: The contents, or `nil` when there is no file.
    /// - Throws: ``Failure`` for a link, a file that is not a regular file or is too large, or a read error.
    public static func read(_ url: URL, limit: Int) throws(Failure) -> Data? {
        // O_NONBLOCK: a FIFO planted here must not hang the reader.
        let descriptor = Foundation.open(url.path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure(url.path, errno)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(url.path, errno) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw Failure(path: url.path, reason: "it is not a regular file")
        }
        guard status.st_size <= limit else {
            throw tooLarge(url, limit)
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count <= limit {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw failure(url.path, errno) }
            if count == 0 { return data }
            data.append(contentsOf: buffer[..<count])
        }
        throw tooLarge(url, limit)
    }

    /// Sets the mode of a file or folder, and leaves a symbolic link and what it points to alone.
    /// - Parameters:
    ///   - url: The file or folder.
    ///   - mode: The new permission bits.
    /// - Returns: `nil` when the mode was set or there is nothing there; otherwise why not, with
    ///   ``Failure/linkTarget`` set for a link, which the caller reports.
    @discardableResult
    public static func restrictMode(_ url: URL, to mode: mode_t) -> Failure? {
        // Glibc does this without a race: an O_PATH descriptor of the name itself, then refuses a link.
        if fchmodat(AT_FDCWD, url.path, mode, AT_SYMLINK_NOFOLLOW) == 0 { return nil }
        let code = errno
        if code == ENOENT { return nil }
        if let target = linkTarget(atPath: url.path) { return Failure(path: url.path, linkTarget: target) }
        guard code == EOPNOTSUPP || code == ENOTSUP else {
            return Failure(path: url.path, reason: "its mode cannot be set (\(errnoText(code)))")
        }
        // A C library or kernel without that (no /proc): a descriptor that cannot be a link's target.
        let descriptor = Foundation.open(url.path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return failure(url.path, errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, [S_IFREG, S_IFDIR].contains(status.st_mode & S_IFMT) else { return nil }
        return fchmod(descriptor, mode) == 0 ? nil : Failure(path: url.path, reason: "its mode cannot be set (\(errnoText()))")
    }

    /// The failure to report for a path that is a symbolic link, or `nil` when it is not one.
    /// - Parameter path: The path, whose last component is not followed.
    public static func refusedLink(atPath path: String) -> Failure? {
        linkTarget(atPath: path).map { Failure(path: path, linkTarget: $0) }
    }

    /// Where a symbolic link points, or `nil` when the path is not one.
    /// - Parameter path: The path, whose last component is not followed.
    public static func linkTarget(atPath path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "an unreadable target"
    }

    /// The failure for an `open(2)` that failed with `code`: a link when the name is one.
    private static func failure(_ path: String, _ code: Int32) -> Failure {
        if code == ELOOP || code == EMLINK, let target = linkTarget(atPath: path) {
            return Failure(path: path, linkTarget: target)
        }
        return Failure(path: path, reason: "it cannot be opened (\(errnoText(code)))")
    }

    private static func tooLarge(_ url: URL, _ limit: Int) -> Failure {
        let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
        return Failure(path: url.path, reason: "it is larger than \(size)")
    }
}
