/*
Abstract:
Whole-file writes that readers never see half done: Foundation's atomic write, or one written a piece at a time.
*/

import Foundation

/// Writes files so that a reader sees either the old contents or the new, never a mix.
///
/// The service and the tools have their own writer, `AtomicFileWriter` in `BackgroundAssetsIPC`;
/// SessionKit cannot use it, because it compiles in an Xcode project with Foundation alone. The
/// durability is the same: Foundation's atomic write (swift-foundation, on Linux as on Apple
/// platforms) also writes a temporary file beside the target, syncs it, and renames it over the
/// old one. What differs is the mode: Foundation keeps an existing file's, and gives a new file the
/// process's default, as an app's files have on Apple platforms; callers that need a private file
/// set its mode afterwards (``ServerCredentials/save(to:)``).
public enum AtomicFile {
    /// Replaces the file at `url` with `data`.
    ///
    /// Foundation writes a temporary file beside the target and renames it over the old one, so the
    /// app and the extension, which share these files, never read a partial manifest.
    /// - Parameters:
    ///   - data: The new contents.
    ///   - url: The file to replace; its folder is created if needed.
    /// - Throws: ``SessionKitError/fileUnwritable(path:reason:)``.
    public static func write(_ data: Data, to url: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw SessionKitError.fileUnwritable(path: url.path, reason: error.localizedDescription)
        }
    }

    /// Replaces the file at `url` with bytes handed out a piece at a time, so a large file is never
    /// in memory whole, with the same promise as ``write(_:to:)``: readers see the old contents or
    /// the new.
    ///
    /// The pieces go to a new file beside the target, which is synced and renamed over it. The new
    /// file takes the old one's permissions, or the process's default for a file that is new, as
    /// Foundation's atomic write does.
    /// - Parameters:
    ///   - url: The file to replace; its folder is created if needed.
    ///   - produce: Writes the contents by calling the function it is given with each piece; if it
    ///     throws, the target is left as it was and the error passes through.
    /// - Throws: ``SessionKitError/fileUnwritable(path:reason:)``, or what `produce` throws.
    public static func write(to url: URL, producing produce: (_ write: ([UInt8]) throws -> Void) throws -> Void) throws {
        _ = try writeReturningVersion(to: url, producing: produce)
    }

    /// ``write(to:producing:)``, returning the new file's status as it was renamed into place, so a
    /// cache can tell this version from any that replaces it later.
    static func writeReturningVersion(
        to url: URL, producing produce: (_ write: ([UInt8]) throws -> Void) throws -> Void
    ) throws -> FileStatus? {
        let manager = FileManager.default
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appending(path: ".\(url.lastPathComponent).\(UUID().uuidString)", directoryHint: .notDirectory)
        func unwritable(_ error: any Error) -> SessionKitError {
            .fileUnwritable(path: url.path, reason: error.localizedDescription)
        }
        let descriptor: Int32
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            let permissions = (try? manager.attributesOfItem(atPath: url.path))?[.posixPermissions]
            guard manager.createFile(atPath: temporary.path, contents: nil,
                                     attributes: permissions.map { [.posixPermissions: $0] }) else {
                throw SessionKitError.fileUnwritable(path: url.path, reason: "\(temporary.path) could not be created")
            }
            descriptor = open(temporary.path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw SessionKitError.fileUnwritable(path: url.path, reason: "\(temporary.path): \(errnoText())")
            }
        } catch let error as SessionKitError {
            throw error
        } catch {
            throw unwritable(error)
        }
        // The descriptor is closed here, exactly once. A FileHandle that owned it would keep its number
        // after a failed close(2), which on Linux frees it all the same, and close it again later:
        // by then the number could be a file another thread has opened.
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        var isOpen = true
        var isInPlace = false
        defer {
            if isOpen { close(descriptor) }
            if !isInPlace { try? manager.removeItem(at: temporary) }
        }
        try produce { piece in
            do {
                try handle.write(contentsOf: piece)
            } catch {
                throw unwritable(error)
            }
        }
        do {
            try handle.synchronize()
        } catch {
            throw unwritable(error)
        }
        isOpen = false
        guard close(descriptor) == 0 else {
            throw SessionKitError.fileUnwritable(path: url.path, reason: errnoText())
        }
        // Read before the rename: afterwards the path could already name a newer file. A rename
        // keeps the inode, size and modification date.
        let version = FileStatus(path: temporary.path)
        guard rename(temporary.path, url.path) == 0 else {
            throw SessionKitError.fileUnwritable(path: url.path, reason: errnoText())
        }
        isInPlace = true
        return version
    }
}
