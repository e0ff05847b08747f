/*
Abstract:
Replaces a file or folder with another the way Apple's FileManager.replaceItemAt does, without losing either.
*/

import DevicePlatform
import Foundation

#if os(Linux)
/// One replacement of the item at `original` by the item at `new`, step by step.
///
/// The steps keep a reader from seeing anything but the old item or the new one, and never lose
/// both: the new item is first brought into the original's folder (copied, when it is on another
/// file system), then renamed over the original, which rename(2) does atomically. Only when one of
/// the two is a folder and the other is not, or both are folders, does the original step aside
/// first (a folder cannot be renamed over another kind of item, nor over a folder with contents);
/// if the new item then fails to move in, the original steps back.
struct ItemReplacement {
    let original: URL
    let new: URL
    let backupItemName: String?
    let options: FileManager.ItemReplacementOptions
    let fileManager: FileManager

    /// Performs the replacement.
    /// - Returns: The URL of the item that now holds the new contents: `original`.
    /// - Throws: `CocoaError` naming the file and the reason; the items are as they were, except
    ///   that a backup made before the failure is kept.
    func perform() throws -> URL {
        guard original.isFileURL else { throw CocoaError(.fileWriteUnsupportedScheme, userInfo: [NSURLErrorKey: original]) }
        guard new.isFileURL else { throw CocoaError(.fileReadUnsupportedScheme, userInfo: [NSURLErrorKey: new]) }
        guard let newStatus = Self.status(of: new) else { throw CocoaError.fileWriteFailure(errno: errno, url: new) }
        let originalStatus = Self.status(of: original)
        let folder = original.deletingLastPathComponent()

        let backup = try originalStatus.map { _ in try makeBackup() } ?? nil
        let staged = try stage(newStatus: newStatus, in: folder)
        do {
            if let originalStatus, !options.contains(.usingNewMetadataOnly) {
                // Apple keeps the original's creation date and permissions; Linux cannot set a
                // creation date, so the permissions are what carries over.
                _ = chmod(staged.path, originalStatus.st_mode & 0o7777)
            }
            if let originalStatus, Self.isFolder(originalStatus) || Self.isFolder(newStatus) {
                try replaceStepping(asideFrom: original, with: staged)
            } else if rename(staged.path, original.path) != 0 {
                throw CocoaError.fileWriteFailure(errno: errno, url: original)
            }
        } catch {
            if staged != new { try? fileManager.removeItem(at: staged) }
            throw error
        }
        if staged != new { try? fileManager.removeItem(at: new) }
        if let backup, !options.contains(.withoutDeletingBackupItem) { try? fileManager.removeItem(at: backup) }
        return original
    }

    /// Keeps the original under `backupItemName` beside it, replacing an item of that name.
    private func makeBackup() throws -> URL? {
        guard let backupItemName else { return nil }
        guard !backupItemName.isEmpty, backupItemName != ".", backupItemName != "..", !backupItemName.contains("/") else {
            throw CocoaError(
                .fileWriteInvalidFileName,
                userInfo: [NSLocalizedDescriptionKey: "The backup item name \"\(backupItemName)\" is not a file name in the original's folder."])
        }
        let backup = original.deletingLastPathComponent().appendingPathComponent(backupItemName)
        if Self.status(of: backup) != nil { try fileManager.removeItem(at: backup) }
        // A hard link keeps the original's bytes without copying them; the rename that follows
        // gives the original's name to the new item and leaves the link holding the old one.
        if link(original.path, backup.path) != 0 { try fileManager.copyItem(at: original, to: backup) }
        return backup
    }

    /// The new item, in the original's folder: itself when it is on the same file system, else a copy.
    private func stage(newStatus: stat, in folder: URL) throws -> URL {
        guard let folderStatus = Self.status(of: folder) else { throw CocoaError.fileWriteFailure(errno: errno, url: original) }
        if folderStatus.st_dev == newStatus.st_dev { return new }
        let copy = folder.appendingPathComponent(".\(original.lastPathComponent).replacing-\(UUID.random().uuidString)")
        try fileManager.copyItem(at: new, to: copy)
        return copy
    }

    /// Moves the original aside, the new item in, and deletes the original; puts it back on failure.
    private func replaceStepping(asideFrom original: URL, with staged: URL) throws {
        let aside = original.deletingLastPathComponent().appendingPathComponent(
            ".\(original.lastPathComponent).replaced-\(UUID.random().uuidString)")
        guard rename(original.path, aside.path) == 0 else { throw CocoaError.fileWriteFailure(errno: errno, url: original) }
        guard rename(staged.path, original.path) == 0 else {
            let failure = CocoaError.fileWriteFailure(errno: errno, url: original)
            _ = rename(aside.path, original.path)
            throw failure
        }
        try? fileManager.removeItem(at: aside)
    }

    private static func status(of url: URL) -> stat? {
        var result = stat()
        return lstat(url.path, &result) == 0 ? result : nil
    }

    private static func isFolder(_ status: stat) -> Bool {
        status.st_mode & S_IFMT == S_IFDIR
    }
}
#endif
