/*
Abstract:
Which file, and which version of it, a path named when it was read: enough to know a record read before is still the one on disk.
*/

import Foundation

/// A file's device, inode, size and modification time.
///
/// A record replaced by a rename is a new inode; one rewritten in place (by hand, or by a tool
/// that does not rename) changes its size or modification time. Either way the identity differs.
struct RecordFileIdentity: Equatable {
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

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
            && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
    }
}
