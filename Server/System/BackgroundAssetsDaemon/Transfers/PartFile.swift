/*
Abstract:
A staging file (*.part) that a download writes into: truncated to its durable length, synced at checkpoints.
*/

import BackgroundAssetsIPC
import Foundation

/// The partial file of one download in `staging/`.
///
/// The file's length is always the number of bytes received: space is reserved without growing
/// it, and bytes a body observer stored elsewhere are a hole in it (``spanHoles(upTo:)``). Bytes
/// handed to the kernel survive a crash of the service, so within the same boot the queue resumes
/// from the file's length; after a reboot only the synced length the store recorded is trusted,
/// and the file is cut back to it on open.
final class PartFile {
    let url: URL
    /// The open file; ``CheckpointSyncer`` syncs it from its own thread while the transfer writes.
    let descriptor: Int32

    /// Opens (creating if needed) the staging file and cuts it to `durableLength` if it is longer.
    /// - Throws: A local ``TransferError``.
    init(url: URL, durableLength: Int64) throws(TransferError) {
        self.url = url
        // Never through a link: the service, maybe root, would write a download into the file it names.
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
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

    /// Files smaller than this are not reserved: a full disk found midway through one costs nothing
    /// to speak of, and the reservation was a system call per download of many small files.
    static let smallestReservation: Int64 = 1 << 20

    /// The bytes an unprivileged writer can still put on the file's disk, or `nil` when unknown.
    var availableBytes: Int64? {
        var status = statvfs()
        guard fstatvfs(descriptor, &status) == 0 else { return nil }
        let (bytes, overflow) = Int64(clamping: status.f_bavail).multipliedReportingOverflow(by: Int64(clamping: status.f_frsize))
        return overflow ? .max : bytes
    }

    /// Reserves disk space for the whole file so a full disk is found now, not midway.
    /// - Throws: A local ``TransferError`` (`ENOSPC` when the disk is full).
    func reserve(totalLength: Int64) throws(TransferError) {
        guard totalLength >= Self.smallestReservation, totalLength > length else { return }
        // FALLOC_FL_KEEP_SIZE: the blocks are reserved but the length stays the received length,
        // which is what a restart after a crash of the service resumes from.
        guard let reserve = Self.fallocate, reserve(descriptor, 0x01, 0, off_t(totalLength)) != 0 else { return }
        let code = errno
        guard code != EOPNOTSUPP, code != EINVAL, code != ENOSYS else { return }
        // A reservation that failed midway may keep what it got: give it back.
        releaseReservation()
        throw Self.error("reserve space for", url, code)
    }

    /// Gives back the blocks reserved past the bytes received, so a download that waits to retry
    /// (for a server, for connectivity, for days) does not hold disk it is not using.
    func releaseReservation() {
        // Truncating to the current length frees the blocks fallocate kept beyond it. Not to
        // `length`, which is 0 when the file cannot be inspected: that would discard the bytes.
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return }
        _ = ftruncate(descriptor, status.st_size)
    }

    /// Linux's `fallocate(2)`, which Glibc's Swift overlay does not export (it needs _GNU_SOURCE).
    private static let fallocate: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "fallocate") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32).self)
    }()

    /// Makes the file at least `length` bytes long without writing them: bytes a body observer
    /// stored elsewhere (a pack archive's files) become a hole instead of cutting the file short,
    /// so its length stays the number of bytes received, the offset the next attempt resumes from
    /// (``HTTPTransfer``, `DownloadQueue.resumeLength`) and the one the observer stopped at.
    /// - Throws: A local ``TransferError``.
    func spanHoles(upTo length: Int64) throws(TransferError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.error("inspect", url, errno) }
        guard Int64(status.st_size) < length else { return }
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw Self.error("extend", url, errno) }
    }

    /// Discards everything, for a restart from zero.
    func truncateToZero() throws(TransferError) {
        try truncate(to: 0)
    }

    /// Discards the bytes after `length`: those a body observer cannot continue after.
    func truncate(to length: Int64) throws(TransferError) {
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw Self.error("truncate", url, errno) }
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
        try Self.sync(descriptor: descriptor, url: url)
    }

    /// Flushes an open staging file to disk; safe from any thread while the file stays open.
    static func sync(descriptor: Int32, url: URL) throws(TransferError) {
        guard fdatasync(descriptor) == 0 else { throw error("sync", url, errno) }
    }

    /// What to do about a full disk: the download fails (retrying cannot free space), so it says so.
    static let fullDiskHint = "The disk is full: free some space, then start the download again."

    private static func error(_ action: String, _ url: URL, _ code: Int32) -> TransferError {
        var hint = code == ENOSPC ? " " + fullDiskHint : ""
        if code == ELOOP, let link = LinkRefusingFile.refusedLink(atPath: url.path) { hint = " \(link)." }
        return TransferError(.local, .localFile(errno: code),
                             "could not \(action) \(url.path): \(errnoText(code)).\(hint)")
    }
}
