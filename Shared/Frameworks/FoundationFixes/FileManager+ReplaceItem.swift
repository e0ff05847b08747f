/*
Abstract:
FileManager.replaceItemAt as Apple's behaves, for code that gets Foundation through these frameworks.
*/

import Foundation

#if os(Linux)
// swift-corelibs-foundation up to Swift 6.3 passes the two paths to rename(2) the wrong way round
// (https://github.com/swiftlang/swift-corelibs-foundation/issues/4655, fixed for Swift 6.4 by
// https://github.com/swiftlang/swift-corelibs-foundation/pull/5443): replacing an existing file moves
// the original over the new file, losing the new contents, and reports "The file doesn't exist"
// (code 4). It also reads the original's attributes first, so a missing original fails with
// code 260 where Apple's FileManager moves the new item into place; the fix in 6.4 keeps that. Apple's
// WWDC Sessions sample moves every finished download and its refreshed manifest with this method.
//
// These declarations shadow Foundation's for every file that gets Foundation through
// BackgroundAssets, BackgroundTasks or OSLog, so such code behaves as on Apple platforms without a
// change. The overloads without default arguments win over Foundation's method even in a file that
// also imports Foundation itself: Swift prefers a method that needs no default argument. Only the
// call that passes all four arguments, in a file that imports Foundation itself, sees both
// declarations; the compiler then reports the ambiguity rather than calling the broken one.
// `FoundationReplaceItemCanaryTests` fails once the toolchain's own method behaves, so this file
// can go.

extension FileManager {
    /// Replaces the item at `originalItemURL` with the item at `newItemURL`, as Apple's FileManager does.
    ///
    /// The new item takes the original's name atomically (rename(2)), after being copied into the
    /// original's folder when it is on another file system; it is gone from `newItemURL` afterwards.
    /// When no item exists at `originalItemURL`, the new item is moved there. Unless `options`
    /// contains `.usingNewMetadataOnly`, the result keeps the original's permissions.
    /// - Parameters:
    ///   - originalItemURL: The item to replace; its folder must exist.
    ///   - newItemURL: The item with the new contents.
    ///   - backupItemName: A name for a copy of the original, kept beside it until the replacement
    ///     succeeds (and afterwards with `.withoutDeletingBackupItem`); an item of that name is replaced.
    ///   - options: `.usingNewMetadataOnly`, `.withoutDeletingBackupItem`.
    /// - Returns: `originalItemURL`, which now holds the new contents.
    /// - Throws: `CocoaError` naming the file and the reason, such as `.fileNoSuchFile` for a missing
    ///   new item or folder; neither item is lost.
    /// - Note: Linux has no creation date to carry over, so only the permissions are kept.
    public func replaceItemAt(
        _ originalItemURL: URL, withItemAt newItemURL: URL, backupItemName: String? = nil,
        options: FileManager.ItemReplacementOptions = []
    ) throws -> URL? {
        try ItemReplacement(
            original: originalItemURL, new: newItemURL, backupItemName: backupItemName, options: options,
            fileManager: self
        ).perform()
    }

    /// Replaces the item at `originalItemURL` with the item at `newItemURL`; see
    /// ``replaceItemAt(_:withItemAt:backupItemName:options:)``.
    public func replaceItemAt(_ originalItemURL: URL, withItemAt newItemURL: URL) throws -> URL? {
        try replaceItemAt(originalItemURL, withItemAt: newItemURL, backupItemName: nil, options: [])
    }

    /// Replaces the item at `originalItemURL` with the item at `newItemURL`, keeping a backup while it
    /// does; see ``replaceItemAt(_:withItemAt:backupItemName:options:)``.
    public func replaceItemAt(
        _ originalItemURL: URL, withItemAt newItemURL: URL, backupItemName: String?
    ) throws -> URL? {
        try replaceItemAt(originalItemURL, withItemAt: newItemURL, backupItemName: backupItemName, options: [])
    }

    /// Replaces the item at `originalItemURL` with the item at `newItemURL` with `options`; see
    /// ``replaceItemAt(_:withItemAt:backupItemName:options:)``.
    public func replaceItemAt(
        _ originalItemURL: URL, withItemAt newItemURL: URL, options: FileManager.ItemReplacementOptions
    ) throws -> URL? {
        try replaceItemAt(originalItemURL, withItemAt: newItemURL, backupItemName: nil, options: options)
    }
}
#endif
