/*
Abstract:
Which file, and which version of it, a path named when it was looked at: enough to know that something read from it before is still what it holds.
*/

import Foundation

/// A file's device, inode, size and modification time.
///
/// A file replaced by a rename is a new inode; one rewritten in place (by hand, or by a tool that
/// does not rename) changes its size or modification time. Either way the identity differs, so a
/// cache of what was read from the file can be trusted while it stays the same.
struct FileIdentity: Equatable {
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let modified: timespec

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = status.st_mtim
    }

    /// The identity of the file at `path`, or `nil` when it cannot be looked at.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
            && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
    }
}
