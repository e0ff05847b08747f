/*
Abstract:
Stopping a download while keeping its bytes, and starting one from bytes kept earlier: resume data for background sessions.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization

/// The bytes of a download that stopped before its end, moved out of the queue, and what a later
/// request needs to continue after them.
public struct KeptPartialFile: Sendable, Equatable {
    /// How many bytes the file holds.
    public var bytes: Int64
    /// The server's strong entity tag for those bytes, for `If-Range`.
    public var entityTag: String?
    /// The server's `Last-Modified` for those bytes, when it sent no strong entity tag.
    public var lastModified: String?

    /// Creates a description of kept bytes.
    public init(bytes: Int64, entityTag: String?, lastModified: String?) {
        self.bytes = bytes
        self.entityTag = entityTag
        self.lastModified = lastModified
    }
}

extension DownloadQueue {
    /// Removes a download from the queue but keeps its bytes: its transfer stops (and its thread
    /// has stopped writing when this returns), its staging file moves to `destination`, synced.
    /// - Returns: What was kept, or `nil` when the download had ended, was not there, or had no bytes
    ///   (nothing is moved then, and the row is removed all the same unless it had ended).
    /// - Throws: A store error.
    public func cancelKeepingPartialFile(id: Int64, movingTo destination: URL) async throws -> KeptPartialFile? {
        if let transfer = running[id] {
            let signal = partialFileKeepers[id] ?? TransferStopSignal()
            partialFileKeepers[id] = signal
            transfer.control.cancel()
            await signal.wait()
        }
        return try keepPartialFile(id: id, movingTo: destination)
    }

    private func keepPartialFile(id: Int64, movingTo destination: URL) throws -> KeptPartialFile? {
        guard let row = try store.download(id: id), !row.state.isTerminal else { return nil }
        let part = staging.partFile(forRow: id)
        var kept: KeptPartialFile?
        let descriptor = open(part.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor >= 0 {
            var status = stat()
            let length = fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
            // Synced before it is named in resume data: the bytes must outlive a power cut as the row did.
            let synced = fsync(descriptor) == 0
            close(descriptor)
            if length > 0, synced, row.resumeValidator != nil {
                try? FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                if rename(part.path, destination.path) == 0 {
                    kept = KeptPartialFile(bytes: length, entityTag: row.entityTag, lastModified: row.lastModified)
                }
            }
        }
        try cancel(id: id)
        return kept
    }

    /// Adds a download that starts no earlier than `notBefore`, and continues from kept bytes when
    /// there are some: `partialFile` becomes its staging file and its first request asks for the
    /// rest with `Range` and `If-Range`.
    ///
    /// When the file cannot be moved the download starts from zero; the server decides in any case,
    /// and a changed file restarts from zero (``HTTPTransfer``).
    /// - Returns: The stored row.
    /// - Throws: ``DaemonError/downloadAlreadyScheduled(bundleIdentifier:identifier:)`` or a store error.
    public func enqueue(_ download: NewDownload, notBefore: Date?, continuingFrom partial: (file: URL, kept: KeptPartialFile)?)
        throws -> DownloadRow
    {
        let now = wallClock.now
        var row = try store.insert(download, at: now)
        // Changed before the queue runs again, so a transfer never starts early or from zero by mistake.
        if let partial, rename(partial.file.path, staging.partFile(forRow: row.id).path) != 0 {
            logger.notice("Download \(download.bundleIdentifier)/\(download.descriptor.identifier) starts from zero: its kept bytes could not be moved back (\(errnoText(errno))).")
        } else if let partial {
            row = try store.update(id: row.id, at: now) { row in
                row.bytesDurable = partial.kept.bytes
                row.entityTag = partial.kept.entityTag
                row.lastModified = partial.kept.lastModified
            }
        }
        if let notBefore, notBefore > now {
            row = try store.update(id: row.id, at: now) { $0.nextAttemptAt = notBefore }
        }
        pump()
        return row
    }
}

/// Wakes the callers waiting for a transfer's thread to stop, once: when the queue records the
/// transfer's end, or when the waiting task is cancelled (a service stopping records no more ends).
final class TransferStopSignal: Sendable {
    private struct State {
        var waiters: [CheckedContinuation<Void, Never>] = []
        var fired = false
    }

    private let state = Mutex(State())

    /// Suspends until ``fire()``, or until the calling task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let firedAlready = state.withLock { state in
                    if !state.fired { state.waiters.append(continuation) }
                    return state.fired
                }
                if firedAlready { continuation.resume() }
            }
        } onCancel: {
            fire()
        }
    }

    /// Wakes every waiter, now and later.
    func fire() {
        let waiters = state.withLock { state in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}
