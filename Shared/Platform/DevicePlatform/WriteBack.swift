/*
Abstract:
Starting the write-back of bytes just written, ahead of the sync that makes them durable.
*/

import Foundation

/// Asks the kernel to start writing a file's bytes out now, without waiting for them.
public enum WriteBack {
    /// Starts writing `count` bytes from `offset` (`0` for all of them through the end) out to disk
    /// (`sync_file_range` with `SYNC_FILE_RANGE_WRITE`), so the disk works while the caller goes on.
    /// Only a hint: an `fdatasync` is what makes the bytes durable.
    public static func start(_ descriptor: Int32, from offset: Int64 = 0, count: Int = 0) {
        _ = syncFileRange?(descriptor, off_t(offset), off_t(count), writeFlag)
    }

    /// `SYNC_FILE_RANGE_WRITE`.
    private static let writeFlag: UInt32 = 2

    /// Linux's `sync_file_range(2)`, which Glibc's Swift overlay does not export (it needs _GNU_SOURCE).
    private static let syncFileRange: (@convention(c) (Int32, off_t, off_t, UInt32) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, off_t, off_t, UInt32) -> Int32).self)
    }()
}
