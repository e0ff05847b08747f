/*
Abstract:
Opens the file a decoded request path names, refusing directories and anything whose real path leaves the catalog.
*/

import BackgroundAssetsIPC
import CConfinedOpen
import Foundation

/// An open regular file of the catalog and the metadata its validators come from.
struct OpenedFile: ~Copyable {
    let descriptor: Int32
    let size: Int64
    let validators: Validators

    deinit {
        close(descriptor)
    }
}

/// Maps decoded request paths to files inside one catalog folder.
final class CatalogFileResolver: Sendable {
    /// Why no file is served for a path.
    enum Failure: Error, Sendable, Equatable {
        /// Missing, a directory, or not a regular file: 404.
        case notFound
        /// Exists but resolves outside the catalog (a symlink out) or cannot be read: 403.
        case forbidden
    }

    /// The catalog's real path, symlinks resolved, without a trailing slash.
    let rootPath: String
    /// The catalog folder, held open so files are opened relative to it and confined to it by the kernel.
    private let rootDescriptor: Int32

    /// Creates a resolver for `root`, which must exist.
    /// - Throws: ``AssetServerError/catalog(path:reason:)`` when the folder cannot be resolved.
    init(root: URL) throws {
        guard let resolved = realpath(root.path, nil) else {
            throw AssetServerError.catalog(path: root.path, reason: errnoText())
        }
        defer { free(resolved) }
        rootPath = String(cString: resolved)
        rootDescriptor = open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootDescriptor >= 0 else { throw AssetServerError.catalog(path: rootPath, reason: errnoText()) }
    }

    deinit {
        close(rootDescriptor)
    }

    /// Opens the regular file `decodedPath` names.
    ///
    /// The kernel resolves the path beneath the catalog in the same call that opens it (`openat2` with
    /// `RESOLVE_BENEATH`), so a symlink inside the catalog pointing outside it is caught whatever the
    /// request looked like, at the cost of one system call. What it cannot decide alone (an absolute symlink,
    /// or a kernel without `openat2`) goes through `realpath(3)`, which resolves every component.
    /// - Throws: ``Failure`` for paths that must not be served.
    func openFile(_ decodedPath: String) throws(Failure) -> OpenedFile {
        guard !decodedPath.hasSuffix("/") else { throw .notFound }
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK  // O_NONBLOCK: a FIFO planted in the catalog cannot hang open(2)
        // Relative to the catalog: past the path's leading `/`.
        var descriptor = decodedPath.withCString { confined_open(rootDescriptor, $0 + 1, flags) }
        if descriptor < 0 {
            switch errno {
            case EACCES: throw .forbidden
            case ENOENT, ENOTDIR, ELOOP, ENAMETOOLONG: throw .notFound
            default: descriptor = try openResolvingEveryComponent(decodedPath, flags: flags)
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw .notFound
        }
        return OpenedFile(descriptor: descriptor, size: Int64(status.st_size), validators: Self.validators(of: status))
    }

    /// The real path of an open file relative to the catalog, starting with `/`, symlinks resolved: where a
    /// rule keyed by path (Basic auth on /protected/) must look. `nil` when it cannot be told.
    func realRelativePath(of file: borrowing OpenedFile) -> String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(file.descriptor)")
        else { return nil }
        return relativePath(ofRealPath: path)
    }

    /// Opens `decodedPath` after `realpath(3)` has shown that it stays inside the catalog.
    private func openResolvingEveryComponent(_ decodedPath: String, flags: Int32) throws(Failure) -> Int32 {
        guard let resolved = realpath(rootPath + decodedPath, nil) else {
            throw errno == EACCES ? .forbidden : .notFound
        }
        defer { free(resolved) }
        let path = String(cString: resolved)
        guard relativePath(ofRealPath: path) != nil else { throw .forbidden }
        let descriptor = open(path, flags)
        guard descriptor >= 0 else { throw errno == EACCES ? .forbidden : .notFound }
        return descriptor
    }

    private func relativePath(ofRealPath path: String) -> String? {
        if rootPath == "/" { return path }
        guard path.hasPrefix(rootPath + "/") else { return nil }
        return String(path.dropFirst(rootPath.count))
    }

    /// A strong entity tag from size, modification time in nanoseconds and inode, as nginx and Go derive theirs:
    /// any rewrite of the file (even same-size, same-second) changes at least one of them.
    static func validators(of status: stat) -> Validators {
        let seconds = Int64(status.st_mtim.tv_sec)
        let nanoseconds = seconds &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec)
        let parts = [UInt64(status.st_size), UInt64(bitPattern: nanoseconds), UInt64(status.st_ino)]
        // Written digit by digit into one string: every response carries it.
        let opaque = String(unsafeUninitializedCapacity: 3 * 16 + 2) { buffer in
            var index = 0
            for (position, part) in parts.enumerated() {
                if position > 0 {
                    buffer[index] = UInt8(ascii: "-")
                    index += 1
                }
                let digits = max(1, (64 - part.leadingZeroBitCount + 3) / 4)
                for digit in (0..<digits).reversed() {
                    let nibble = UInt8(truncatingIfNeeded: part >> (4 * UInt64(digit)) & 0xF)
                    buffer[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                    index += 1
                }
            }
            return index
        }
        return Validators(entityTag: EntityTag(opaque: opaque), lastModified: seconds)
    }
}
