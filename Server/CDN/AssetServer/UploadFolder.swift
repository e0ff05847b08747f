/*
Abstract:
The folder uploads are written into: `uploads/` in the catalog, reached without links, one file per name, written whole or not at all.
*/

import BackgroundAssetsIPC
import Foundation
import SessionKit

/// Where `PUT /uploads/NAME` and `POST /uploads/NAME` store what clients send.
///
/// Every step refuses links: the catalog folder and `uploads/` are opened with `O_NOFOLLOW`, and a file
/// is created beside its final name with `O_CREAT | O_EXCL | O_NOFOLLOW`, then renamed over it once
/// complete and synced. Nothing is ever written outside `uploads/`, and a reader of the folder never
/// sees half a file.
struct UploadFolder {
    /// The catalog folder, which holds `uploads/`.
    let catalogDirectory: URL

    /// The name of the folder inside the catalog.
    static let folderName = "uploads"

    /// Whether `name` may name an upload: one path component of letters, digits, `.`, `_` and `-`, not
    /// starting with a dot, at most 128 bytes. Anything else (a slash, `..`, a NUL, a hidden file) is refused.
    static func isAcceptable(name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 128, name.first != "." else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
        }
    }

    /// What was stored.
    struct Stored {
        var bytes: Int64
        var sha256: String
    }

    /// Why an upload was not stored.
    enum Failure: Error {
        /// The client stopped sending before the declared length.
        case bodyCut
        /// The folder or the file could not be written; the sentence says what failed.
        case storage(String)
    }

    /// Writes `length` bytes, read from `receive`, to `uploads/name`, replacing an earlier upload of that name.
    /// - Parameter receive: Fills the buffer with the next bytes of the body; returns 0 when there are none.
    func store(name: String, length: Int64, receive: (UnsafeMutableRawBufferPointer) -> Int) throws(Failure) -> Stored {
        let folder = try openFolder()
        defer { close(folder) }
        let temporary = ".\(name).\(UUID.random().uuidString).partial"
        let file = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw .storage("the file cannot be created in \(Self.folderName)/: \(String(cString: strerror(errno)))") }
        var complete = false
        defer {
            close(file)
            if !complete { unlinkat(folder, temporary, 0) }
        }
        var hash = SHA256()
        var remaining = length
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { chunk.deallocate() }
        while remaining > 0 {
            let wanted = Int(min(remaining, Int64(chunk.count)))
            let count = receive(UnsafeMutableRawBufferPointer(rebasing: chunk[0..<wanted]))
            guard count > 0 else { throw .bodyCut }
            let piece = UnsafeRawBufferPointer(rebasing: chunk[0..<count])
            hash.update(bytes: piece)
            var written = 0
            while written < count {
                let result = write(file, piece.baseAddress.map { $0 + written }, count - written)
                guard result > 0 else { throw .storage("the file cannot be written: \(String(cString: strerror(errno)))") }
                written += result
            }
            remaining -= Int64(count)
        }
        guard fsync(file) == 0, renameat(folder, temporary, folder, name) == 0 else {
            throw .storage("the file cannot be completed: \(String(cString: strerror(errno)))")
        }
        complete = true
        return Stored(bytes: length, sha256: hash.finalize())
    }

    /// Opens `uploads/` in the catalog, creating it, through no link at either level.
    private func openFolder() throws(Failure) -> Int32 {
        let catalog = open(catalogDirectory.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard catalog >= 0 else { throw .storage("the catalog folder cannot be opened: \(String(cString: strerror(errno)))") }
        defer { close(catalog) }
        if mkdirat(catalog, Self.folderName, 0o755) != 0, errno != EEXIST {
            throw .storage("\(Self.folderName)/ cannot be made: \(String(cString: strerror(errno)))")
        }
        let folder = openat(catalog, Self.folderName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else {
            throw .storage("\(Self.folderName)/ cannot be opened (is it a link?): \(String(cString: strerror(errno)))")
        }
        return folder
    }
}
