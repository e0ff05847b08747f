/*
Abstract:
Routing the queue's events to the app's connected delegates, and handing finished files over.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// The connections of an app that set a delegate.
    func delegates(of app: String) -> [Session] {
        sessions.values.filter { $0.hasDelegate && $0.hello?.bundleIdentifier == app }
            .sorted { $0.connection.id < $1.connection.id }
    }

    func route(_ event: QueueEvent) {
        switch event {
        case let .began(row):
            broadcast(.didBegin(download: row.descriptor), to: row, traced: "downloadDidBegin")
        case let .paused(row):
            // The reason, when there is one: a promotion, or the error it waits to retry after.
            broadcast(.didPause(download: row.descriptor), to: row, traced: "downloadDidPause",
                      detail: row.state == .waiting ? row.lastError?.message : nil)
        case let .progress(row, written, total, expected):
            broadcast(.didWriteBytes(download: row.descriptor, bytesWritten: written, totalBytesWritten: total,
                                     totalBytesExpectedToWrite: expected), to: row, traced: nil)
        case let .failed(row, failure):
            broadcast(.failed(download: row.descriptor, failure: failure), to: row, traced: "failedWithError", detail: failure.message)
        case let .finished(row, file):
            let receivers = delegates(of: row.bundleIdentifier)
            let deliveryID = allocateIdentifier()
            deliveries[deliveryID] = Delivery(file: file, pending: Set(receivers.map(\.connection.id)))
            for session in receivers {
                session.connection.send(.event(.finished(deliveryID: deliveryID, download: row.descriptor, filePath: file.path)))
            }
            traceEvent("finishedWithFileURL", row: row, receivers: receivers)
            if receivers.isEmpty {
                logger.notice("Download \(row.descriptor.identifier) finished with no delegate connected; its file was deleted.")
                finishDelivery(deliveryID)
            }
        case let .challenge(row, challenge):
            let receivers = delegates(of: row.bundleIdentifier)
            let deliveryID = allocateIdentifier()
            challenges[deliveryID] = row.id
            for session in receivers {
                session.connection.send(.event(.didReceiveChallenge(deliveryID: deliveryID, download: row.descriptor, challenge: challenge)))
            }
            traceEvent("didReceiveChallenge", row: row, receivers: receivers)
            if receivers.isEmpty {
                // Nobody can answer: what URLSession does without a delegate.
                challenges[deliveryID] = nil
                let queue = queue!
                Task { try? await queue.answerChallenge(id: row.id, answer: ChallengeAnswer(disposition: .performDefaultHandling)) }
            }
        }
    }

    /// Deletes a delivered file once every delegate's callback returned, unless one moved it.
    func finishDelivery(_ deliveryID: UInt64) {
        guard let delivery = deliveries.removeValue(forKey: deliveryID) else { return }
        unlink(delivery.file.path)
    }

    private func broadcast(_ event: ServerEvent, to row: DownloadRow, traced name: String?, detail: String? = nil) {
        let receivers = delegates(of: row.bundleIdentifier)
        for session in receivers { session.connection.send(.event(event)) }
        if let name { traceEvent(name, row: row, receivers: receivers, detail: detail) }
    }

    private func traceEvent(_ name: String, row: DownloadRow, receivers: [Session], detail: String? = nil) {
        let roles = Set(receivers.compactMap { $0.hello?.role.rawValue }).sorted()
        trace.append(.init(from: "backgroundassetsd", to: roles.isEmpty ? "nobody" : roles.joined(separator: "+"),
                           event: name, app: row.bundleIdentifier, download: row.descriptor.identifier, detail: detail))
    }
}
