/*
Abstract:
What stat(2) says of a file: its size, and enough to tell one version of it from another.
*/

import Foundation

/// A file's size, identity and modification time, read with one `stat(2)`.
///
/// `FileManager.attributesOfItem(atPath:)` says more (extended attributes, the owner's and group's
/// names), which on Linux costs about fifteen times as much: too much for a check the app makes
/// after every download, on a thousand sessions.
struct FileStatus: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int

    /// The status of the file at a path, following symbolic links, or `nil` when there is none.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int(status.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int(status.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
        #endif
    }
}
