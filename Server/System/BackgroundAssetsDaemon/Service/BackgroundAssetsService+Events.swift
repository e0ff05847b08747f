/*
Abstract:
Routing the queue's events to the app's connected delegates, and finished files to their delivery.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Hands an event of the queue to whoever receives it; a finish leaves the finishes on their
    /// way only once its file's receiver is known (see ``FinishesOnTheirWay``).
    func route(_ event: QueueEvent) async {
        await routeToReceivers(event)
        if case let .finished(row, _) = event { queue.finishesOnTheirWay.remove(row.id) }
    }

    private func routeToReceivers(_ event: QueueEvent) async {
        // A background session's transfer is the session's to report, never a delegate's or the extension's.
        if event.row.descriptor.kind == .backgroundSession { return await routeURLSessionTransfer(event) }
        // Archives of managed asset packs are the system's own: installed, never handed over.
        if event.row.descriptor.kind == .assetPack { return await routeAssetPackEvent(event) }
        switch event {
        case let .began(row):
            progressSamples.forget(rowID: row.id)
            broadcast(.didBegin(download: row.descriptor), to: row, traced: "downloadDidBegin")
        case let .paused(row):
            // The reason, when there is one: a promotion, or the error it waits to retry after.
            broadcast(.didPause(download: row.descriptor), to: row, traced: "downloadDidPause",
                      detail: row.state == .waiting ? row.lastError?.message : nil)
            progressSamples.forget(rowID: row.id)
        case let .progress(row, written, total, expected):
            let receivers = broadcast(
                .didWriteBytes(download: row.descriptor, bytesWritten: written, totalBytesWritten: total,
                               totalBytesExpectedToWrite: expected), to: row, traced: nil)
            if progressSamples.keeps(rowID: row.id, written: total, expected: expected, at: wallClock.now) {
                traceEvent(TraceEntry.progressEvent, row: row, receivers: receivers)
            }
            await perform(installs.essentialProgressed(app: row.bundleIdentifier, rowID: row.id, totalWritten: total))
        case let .failed(row, failure):
            defer { progressSamples.forget(rowID: row.id) }
            if let actions = installs.downloadFailed(app: row.bundleIdentifier, rowID: row.id, download: row.descriptor, failure: failure) {
                traceEvent("failedWithError", row: row, to: "backgroundassetsd", detail: "essential; held for the extension: \(failure.message)")
                return await perform(actions)
            }
            await reportFailure(of: row.descriptor, app: row.bundleIdentifier, failure) { receivers in
                traceEvent("failedWithError", row: row, receivers: receivers, detail: failure.message)
            }
        case let .finished(row, file):
            defer { progressSamples.forget(rowID: row.id) }
            if let actions = installs.downloadFinished(app: row.bundleIdentifier, rowID: row.id, download: row.descriptor, file: file) {
                traceEvent("finishedWithFileURL", row: row, to: "backgroundassetsd", detail: "essential; held for the extension")
                return await perform(actions)
            }
            // Offered to the app's delegates, held for one reconnecting, or given to the extension.
            await deliver(FinishedFile(row: row, file: file))
        case let .redirected(row, from, to, status):
            // Where a download's bytes really come from, hop by hop.
            traceEvent("redirected", row: row, to: "backgroundassetsd", detail: "\(status) from \(from.absoluteString) to \(to.absoluteString)")
        case let .challenge(row, challenge):
            let receivers = clients.delegates(of: row.bundleIdentifier)
            if receivers.isEmpty, installedApps.contains(row.bundleIdentifier) {
                traceEvent("didReceiveChallenge", row: row, receivers: receivers, detail: "no delegate connected: asking the extension")
                return await callExtension(of: row.bundleIdentifier, [ExtensionCallRecord(call: .challenge(download: row.descriptor, challenge: challenge), purpose: .challenge(rowID: row.id))])
            }
            let deliveryID = allocateIdentifier()
            handOvers.ask(deliveryID, rowID: row.id)
            for client in receivers {
                client.connection.send(.event(.didReceiveChallenge(deliveryID: deliveryID, download: row.descriptor, challenge: challenge)))
            }
            traceEvent("didReceiveChallenge", row: row, receivers: receivers)
            if receivers.isEmpty {
                // Nobody can answer: what URLSession does without a delegate.
                _ = handOvers.answer(deliveryID)
                let queue = queue
                activities.run("default answer to a challenge of \(row.id)") { [queue] in
                    try? await queue.answerChallenge(id: row.id, answer: ChallengeAnswer(disposition: .performDefaultHandling))
                }
            }
        }
    }

    @discardableResult
    private func broadcast(_ event: ServerEvent, to row: DownloadRow, traced name: String?, detail: String? = nil) -> [Client] {
        let receivers = clients.delegates(of: row.bundleIdentifier)
        for client in receivers { client.connection.send(.event(event)) }
        if let name { traceEvent(name, row: row, receivers: receivers, detail: detail) }
        return receivers
    }

    /// Tells the app's delegates that a download failed or, with none connected, its installed
    /// app's extension: where every failure goes, a transfer's or a start the store could not record.
    /// - Parameter traced: Records the event in the trace, given who received it.
    func reportFailure(of download: DownloadDescriptor, app: String, _ failure: WireFailure, traced: ([Client]) -> Void) async {
        let receivers = clients.delegates(of: app)
        for client in receivers { client.connection.send(.event(.failed(download: download, failure: failure))) }
        traced(receivers)
        if receivers.isEmpty, installedApps.contains(app) {
            await callExtension(of: app, [ExtensionCallRecord(call: .failed(download: download, failure: failure), purpose: .notice)])
        }
    }

    func traceEvent(_ name: String, row: DownloadRow, receivers: [Client], detail: String? = nil) {
        traceEvent(name, row: row, to: Self.receiverName(receivers), detail: detail)
    }

    /// Who received an event, as the trace names it: the receivers' roles, or "nobody".
    static func receiverName(_ receivers: [Client]) -> String {
        // One receiver (the app's delegate) is most events': named without a set to sort.
        let receiver = if receivers.count == 1, let role = receivers[0].hello?.role.rawValue {
            role
        } else {
            Set(receivers.compactMap { $0.hello?.role.rawValue }).sorted().joined(separator: "+")
        }
        return receiver.isEmpty ? "nobody" : receiver
    }

    func traceEvent(_ name: String, row: DownloadRow, to receiver: String, detail: String? = nil) {
        trace.append(.init(from: "backgroundassetsd", to: receiver, event: name, app: row.bundleIdentifier,
                           download: row.descriptor.identifier, detail: detail, transfer: transfer(of: row)))
    }

    /// Where a download's transfer stands, for its trace entries: a timeline draws bytes over time from them.
    private func transfer(of row: DownloadRow) -> TraceTransfer {
        let declared = row.descriptor.fileSize > 0 ? Int64(row.descriptor.fileSize) : nil
        let expected = row.expectedLength ?? declared
        let written = row.state == .finished
            ? expected ?? row.bytesDurable
            : max(row.bytesDurable, progressSamples.lastWritten(rowID: row.id))
        return TraceTransfer(written: written, expected: expected, foreground: row.isForeground,
                             essential: row.descriptor.isEssential, priority: row.descriptor.priority)
    }
}
