/*
Abstract:
Turns a running transfer's reports into durable checkpoints in the store and progress events.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization
import SystemLogging

/// Receives a transfer's events on the transfer's own thread.
///
/// Checkpoints are written to the store right there, before the transfer goes on, so the store
/// never lags the synced bytes by more than one checkpoint even if the service is killed.
final class TransferRecorder: Sendable {
    private struct State {
        var validator: ResumeValidator?
        var lastTotal: Int64
        var restartReason: String?
        /// The file's whole length, once the response gave it.
        var completeLength: Int64?
    }

    private let row: DownloadRow
    /// The boot writing the staging file, recorded with the first checkpoint.
    private let boot: String
    private let store: DownloadStore
    /// The real time the records are stamped by.
    private let wallClock: any ServiceClock
    private let observer: @Sendable (QueueEvent) -> Void
    private let logger: Logger
    private let state: Mutex<State>

    init(
        row: DownloadRow, boot: String, store: DownloadStore, wallClock: any ServiceClock,
        observer: @escaping @Sendable (QueueEvent) -> Void, logger: Logger
    ) {
        self.row = row
        self.wallClock = wallClock
        self.boot = boot
        self.store = store
        self.observer = observer
        self.logger = logger
        state = Mutex(State(validator: row.resumeValidator, lastTotal: row.bytesDurable, restartReason: nil))
    }

    /// The largest file whose first and last checkpoints are not recorded while nothing about it
    /// is on record: what a `kill -9` of the service mid-transfer fetches twice anyway
    /// (Docs/Performance.md), so a crash costs no more than it already may.
    static let largestFileFetchedAgainAfterACrash: Int64 = 256 << 10

    /// Why the attempt threw the bytes on disk away and started from zero, if it did.
    var restartReason: String? { state.withLock { $0.restartReason } }

    func record(_ event: TransferEvent) {
        do {
            switch event {
            case let .checkpoint(length, validator):
                let (recorded, completeLength) = state.withLock { ($0.validator, $0.completeLength) }
                let changed = recorded != validator
                // The last checkpoint of a whole file is recorded by the download's end, in the
                // commit that marks it finished. A crash in between leaves the whole file on disk,
                // which the next attempt's 416 confirms, or, after a reboot, the last checkpoint.
                if !changed, length == completeLength { break }
                // A small file with nothing on record keeps it that way at its first byte and its
                // last: after a crash, bytes without a validator are fetched again from zero, a
                // few KiB once, where recording the validator costs every download one write in four.
                if recorded == nil, validator != nil, length == 0 || length == completeLength,
                   let completeLength, completeLength <= Self.largestFileFetchedAgainAfterACrash {
                    break
                }
                try store.recordCheckpoint(
                    id: row.id, bytesDurable: length, boot: boot,
                    validator: changed ? DownloadStore.Validator(validator) : nil, at: wallClock.now)
                state.withLock { $0.validator = validator }
            case let .progress(total, expected):
                let written = state.withLock { state in
                    defer { state.lastTotal = total }
                    return total - state.lastTotal
                }
                let expectedTotal = expected ?? Int64(row.descriptor.fileSize)
                observer(.progress(row, bytesWritten: max(0, written), totalBytesWritten: total, totalBytesExpected: expectedTotal))
            case let .redirected(from, to, status):
                observer(.redirected(row, from: from, to: to, status: status))
            case let .movedPermanently(url):
                try store.update(id: row.id, at: wallClock.now) { $0.descriptor.url = url.absoluteString }
            case .bodyEnded:
                // Nothing to record: the queue hears of it itself, to give the transfer's slot to the next download.
                break
            case let .restartedFromZero(reason):
                state.withLock { state in
                    state.lastTotal = 0
                    state.restartReason = reason
                }
                logger.notice("Download \(row.descriptor.identifier) starts over: \(reason).")
            case let .began(_, expectedLength):
                state.withLock { $0.completeLength = expectedLength }
                // The server's length, for status, when the download declared none. (A declared
                // size is enforced: the transfer fails if the server's differs.)
                if let expectedLength, row.descriptor.fileSize <= 0, expectedLength != row.expectedLength {
                    try store.update(id: row.id, at: wallClock.now) { $0.expectedLength = expectedLength }
                }
            }
        } catch {
            // The row is gone (cancelled) or the store failed; the transfer's outcome decides.
            logger.debug("Download \(row.id) could not record \(event): \(error)")
        }
    }
}
