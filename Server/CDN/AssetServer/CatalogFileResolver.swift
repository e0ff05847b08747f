/*
Abstract:
Opens the file a decoded request path names, refusing directories and anything whose real path leaves the catalog.
*/

import BackgroundAssetsIPC
import Foundation

/// An open regular file of the catalog and the metadata its validators come from.
struct OpenedFile: ~Copyable {
    let descriptor: Int32
    /// The file's real path relative to the catalog, starting with `/`, symlinks resolved.
    let realRelativePath: String
    let size: Int64
    let validators: Validators

    deinit {
        close(descriptor)
    }
}

/// Maps decoded request paths to files inside one catalog folder.
struct CatalogFileResolver: Sendable {
    /// Why no file is served for a path.
    enum Failure: Error, Sendable, Equatable {
        /// Missing, a directory, or not a regular file: 404.
        case notFound
        /// Exists but resolves outside the catalog (a symlink out) or cannot be read: 403.
        case forbidden
    }

    /// The catalog's real path, symlinks resolved, without a trailing slash.
    let rootPath: String

    /// Creates a resolver for `root`, which must exist.
    /// - Throws: ``AssetServerError/catalog(path:reason:)`` when the folder cannot be resolved.
    init(root: URL) throws {
        guard let resolved = realpath(root.path, nil) else {
            throw AssetServerError.catalog(path: root.path, reason: errnoText())
        }
        defer { free(resolved) }
        rootPath = String(cString: resolved)
    }

    /// The real path of `decodedPath` if it is inside the catalog.
    ///
    /// `realpath(3)` resolves every symlink, so a link inside the catalog pointing outside it is caught here,
    /// whatever the request looked like.
    func confinedRealPath(of decodedPath: String) throws(Failure) -> String {
        guard !decodedPath.hasSuffix("/") else { throw .notFound }
        guard let resolved = realpath(rootPath + decodedPath, nil) else {
            throw errno == EACCES ? .forbidden : .notFound
        }
        defer { free(resolved) }
        let path = String(cString: resolved)
        let prefix = rootPath == "/" ? "/" : rootPath + "/"
        guard path.hasPrefix(prefix) else { throw .forbidden }
        return path
    }

    /// Opens the regular file `decodedPath` names.
    /// - Throws: ``Failure`` for paths that must not be served.
    func openFile(_ decodedPath: String) throws(Failure) -> OpenedFile {
        let path = try confinedRealPath(of: decodedPath)
        // O_NONBLOCK keeps a FIFO planted in the catalog from hanging the connection in open(2).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw errno == EACCES ? .forbidden : .notFound }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw .notFound
        }
        return OpenedFile(descriptor: descriptor, realRelativePath: String(path.dropFirst(rootPath == "/" ? 0 : rootPath.count)),
                          size: Int64(status.st_size), validators: Self.validators(of: status))
    }

    /// A strong entity tag from size, modification time in nanoseconds and inode, as nginx and Go derive theirs:
    /// any rewrite of the file (even same-size, same-second) changes at least one of them.
    static func validators(of status: stat) -> Validators {
        let seconds = Int64(status.st_mtim.tv_sec)
        let nanoseconds = seconds &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec)
        let opaque = String(UInt64(status.st_size), radix: 16) + "-" + String(UInt64(bitPattern: nanoseconds), radix: 16)
            + "-" + String(UInt64(status.st_ino), radix: 16)
        return Validators(entityTag: EntityTag(opaque: opaque), lastModified: seconds)
    }
}
