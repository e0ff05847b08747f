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
    }

    private let row: DownloadRow
    private let store: DownloadStore
    private let observer: @Sendable (QueueEvent) -> Void
    private let logger: Logger
    private let state: Mutex<State>

    init(row: DownloadRow, store: DownloadStore, observer: @escaping @Sendable (QueueEvent) -> Void, logger: Logger) {
        self.row = row
        self.store = store
        self.observer = observer
        self.logger = logger
        let validator: ResumeValidator? = row.entityTag.map { .entityTag($0) } ?? row.lastModified.map { .lastModified($0) }
        state = Mutex(State(validator: validator, lastTotal: row.bytesDurable, restartReason: nil))
    }

    /// Why the attempt threw the bytes on disk away and started from zero, if it did.
    var restartReason: String? { state.withLock { $0.restartReason } }

    func record(_ event: TransferEvent) {
        do {
            switch event {
            case let .checkpoint(length, validator):
                let changed = state.withLock { state in
                    defer { state.validator = validator }
                    return state.validator != validator
                }
                if changed {
                    try store.update(id: row.id, at: .now) { row in
                        row.entityTag = nil
                        row.lastModified = nil
                        switch validator {
                        case let .entityTag(tag): row.entityTag = tag
                        case let .lastModified(date): row.lastModified = date
                        case nil: break
                        }
                        row.bytesDurable = length
                    }
                }
                try store.recordCheckpoint(id: row.id, bytesDurable: length, at: .now)
            case let .progress(total, expected):
                let written = state.withLock { state in
                    defer { state.lastTotal = total }
                    return total - state.lastTotal
                }
                let expectedTotal = expected ?? Int64(row.descriptor.fileSize)
                observer(.progress(row, bytesWritten: max(0, written), totalBytesWritten: total, totalBytesExpected: expectedTotal))
            case let .movedPermanently(url):
                try store.update(id: row.id, at: .now) { $0.descriptor.url = url.absoluteString }
            case let .restartedFromZero(reason):
                state.withLock { state in
                    state.lastTotal = 0
                    state.restartReason = reason
                }
                logger.notice("Download \(row.descriptor.identifier) starts over: \(reason).")
            case let .began(_, expectedLength?) where expectedLength != row.expectedLength:
                // The server's length, for status, when the download declared none.
                try store.update(id: row.id, at: .now) { $0.expectedLength = expectedLength }
            case .began:
                break
            }
        } catch {
            // The row is gone (cancelled) or the store failed; the transfer's outcome decides.
            logger.debug("Download \(row.id) could not record \(event): \(error)")
        }
    }
}
