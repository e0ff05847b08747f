/*
Abstract:
Syncs a staging file at checkpoints on a thread of its own, so a transfer keeps receiving while the disk catches up.
*/

import Foundation

/// Takes the checkpoints of one response body off the transfer's thread.
///
/// A checkpoint is reported only once its bytes are on disk, but the transfer does not wait for
/// that: it asks for the checkpoint and keeps receiving while this thread's `fdatasync` writes out
/// the bytes since the last one (64 MiB or a second's worth, by default), so the disk and the network
/// work at the same time rather than in turns. The end of the transfer (``finish()``) waits only for the
/// syncs still asked for.
///
/// Requests made while a sync runs are merged: the next sync covers the latest length asked for.
/// A body observer's work for each checkpoint (``TransferBodyObserver/checkpoint(at:)``) runs after
/// the sync and before the report, every one of them in order, since each makes its own writes durable.
final class CheckpointSyncer: @unchecked Sendable {
    // `condition` guards every stored var below; hence the unchecked Sendable.
    private let condition = NSCondition()
    private var requestedLength: Int64?
    private var observerWork: [@Sendable () -> Void] = []
    private var isSyncing = false
    private var isFinishing = false
    private var failure: TransferError?

    private let descriptor: Int32
    private let url: URL
    private let validator: ResumeValidator?
    private let events: @Sendable (TransferEvent) -> Void

    /// Starts the syncing thread for a staging file, which must stay open until ``finish()`` returns.
    init(part: PartFile, validator: ResumeValidator?, events: @escaping @Sendable (TransferEvent) -> Void) {
        descriptor = part.descriptor
        url = part.url
        self.validator = validator
        self.events = events
        Thread.start(named: "checkpoint-sync") { [self] in run() }
    }

    /// Asks for the file to be synced up to `length` and reported as a checkpoint; returns at once.
    /// - Parameter work: What makes a body observer's bytes up to `length` durable, run after the sync.
    /// - Throws: The error of an earlier sync: the transfer stops, as it would have then.
    func checkpoint(length: Int64, then work: (@Sendable () -> Void)? = nil) throws(TransferError) {
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw failure }
        requestedLength = length
        if let work { observerWork.append(work) }
        condition.signal()
    }

    /// Waits until every checkpoint asked for is synced and reported, then stops the thread.
    /// - Throws: The error of a sync that failed.
    func finish() throws(TransferError) {
        condition.lock()
        defer { condition.unlock() }
        isFinishing = true
        condition.broadcast()
        while isSyncing || requestedLength != nil { condition.wait() }
        if let failure { throw failure }
    }

    private func run() {
        while true {
            condition.lock()
            while requestedLength == nil, !isFinishing { condition.wait() }
            guard let length = requestedLength, failure == nil else {
                requestedLength = nil
                condition.broadcast()
                condition.unlock()
                return
            }
            requestedLength = nil
            let work = observerWork
            observerWork = []
            isSyncing = true
            condition.unlock()

            var error: TransferError?
            do throws(TransferError) {
                try PartFile.sync(descriptor: descriptor, url: url)
                for step in work { step() }
                // Reported before the sync counts as done, so finish() returns after the event.
                events(.checkpoint(length: length, validator: validator))
            } catch let failed {
                error = failed
            }

            condition.lock()
            isSyncing = false
            if let error { failure = error }
            condition.broadcast()
            condition.unlock()
        }
    }
}
