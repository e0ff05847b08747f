/*
Abstract:
A staging file (*.part) that a download writes into: truncated to its durable length, synced at checkpoints.
*/

import BackgroundAssetsIPC
import Foundation
import HTTPCore

/// The partial file of one download in `staging/`.
///
/// Only bytes that were synced to disk count: on open the file is cut back to the length the
/// store last recorded, because anything after it may be garbage left by a crash.
final class PartFile {
    let url: URL
    private let descriptor: Int32

    /// Opens (creating if needed) the staging file and cuts it to `durableLength`, dropping any
    /// space reserved past it.
    /// - Throws: A local ``TransferError``.
    init(url: URL, durableLength: Int64) throws(TransferError) {
        self.url = url
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.error("open", url, errno) }
        self.descriptor = descriptor
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.error("inspect", url, errno) }
        if Int64(status.st_size) != durableLength {
            guard ftruncate(descriptor, off_t(min(Int64(status.st_size), durableLength))) == 0 else {
                throw Self.error("truncate", url, errno)
            }
        }
    }

    deinit { close(descriptor) }

    /// The file's current length.
    var length: Int64 {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// Reserves disk space for the whole file so a full disk is found now, not midway.
    /// - Throws: A local ``TransferError`` (`ENOSPC` when the disk is full).
    func reserve(totalLength: Int64) throws(TransferError) {
        guard totalLength > length else { return }
        // The file's length then no longer says how much was received; the durable length the
        // store records does, and reopening cuts the file back to it.
        let result = posix_fallocate(descriptor, 0, off_t(totalLength))
        guard result == 0 || result == EOPNOTSUPP || result == EINVAL else {
            throw Self.error("reserve space for", url, result)
        }
    }

    /// Discards everything, for a restart from zero.
    func truncateToZero() throws(TransferError) {
        guard ftruncate(descriptor, 0) == 0 else { throw Self.error("truncate", url, errno) }
    }

    /// Writes bytes at an offset.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(TransferError) {
        var written = 0
        while written < bytes.count {
            let count = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset) + off_t(written))
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.error("write", url, errno)
            }
            written += count
        }
    }

    /// Flushes the written bytes to disk, so the length can be recorded as durable.
    func sync() throws(TransferError) {
        guard fdatasync(descriptor) == 0 else { throw Self.error("sync", url, errno) }
    }

    private static func error(_ action: String, _ url: URL, _ code: Int32) -> TransferError {
        let hint = code == ENOSPC ? " The disk is full: free some space and the download will continue." : ""
        return TransferError(.local, .localFile(errno: code),
                             "could not \(action) \(url.path): \(errnoText(code)).\(hint)")
    }
}
