/*
Abstract:
Ends of downloads the store could not record (a full disk), kept and recorded again until it can.
*/

import BackgroundAssetsIPC
import Foundation

/// How a download ended while the store could not write it down.
enum UnrecordedEnd: Sendable, Equatable {
    /// Its whole file was handed over.
    case finished(length: Int64, file: URL)
    /// It failed for good.
    case failed(WireFailure)
    /// Its attempt ended and it should run again.
    case interrupted
}

extension DownloadQueue {
    /// How long the queue waits before writing down unrecorded ends again.
    static let recordingRetryInterval: Duration = .seconds(1)

    /// Keeps an end the store could not record, so the download is never left `downloading` with
    /// no transfer behind it; the queue writes it down as soon as the store can.
    func keepUnrecorded(_ end: UnrecordedEnd, of id: Int64, because error: any Error) {
        unrecordedEnds[id] = end
        logger.error("Recording the end of download \(id) failed: \(reasonText(error)). The queue will record it again in \(Self.recordingRetryInterval.components.seconds) s.")
        scheduleRecordingRetry()
    }

    /// Writes down every kept end it can, and tells the clients; keeps trying for the rest.
    func recordUnrecordedEnds() {
        for (id, end) in unrecordedEnds.sorted(by: { $0.key < $1.key }) {
            do {
                guard try store.download(id: id) != nil else {
                    // Cancelled meanwhile: nothing is left to record.
                    unrecordedEnds[id] = nil
                    continue
                }
                switch end {
                case let .finished(length, file):
                    try finish(id: id, length: length, file: file)
                case let .failed(failure):
                    let failed = try store.update(id: id, at: wallClock.now) { row in
                        row.state = .failed
                        row.lastError = failure
                    }
                    observer(.failed(failed, failure))
                case .interrupted:
                    let waiting = try store.update(id: id, at: wallClock.now) { row in
                        row.state = .waiting
                        row.nextAttemptAt = wallClock.now
                    }
                    observer(.paused(waiting))
                }
                unrecordedEnds[id] = nil
                logger.notice("The end of download \(id) is recorded now.")
            } catch {
                scheduleRecordingRetry()
                return
            }
        }
    }

    /// Pumps the queue again in a moment, writing down what could not be recorded first: after a
    /// store failure nothing else may happen to make the queue look again.
    func scheduleRecordingRetry() {
        guard recordingRetry == nil else { return }
        recordingRetry = activities.after(Self.recordingRetryInterval, "recording retry") { [weak self] in
            await self?.retryRecording()
        }
    }

    private func retryRecording() {
        recordingRetry = nil
        recordUnrecordedEnds()
        pump()
    }
}
