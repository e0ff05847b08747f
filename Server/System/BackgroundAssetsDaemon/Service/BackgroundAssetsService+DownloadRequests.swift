/*
Abstract:
The service's answers to the downloads family: the download manager's downloads, its delegate and exclusive control.
*/

import BackgroundAssetsIPC

extension BackgroundAssetsService {
    /// Answers a request of the downloads family, or returns `nil` when the answer comes later (exclusive control).
    func handleDownloadRequest(
        _ request: ClientRequest.Downloads, id: UInt64, hello: Hello, client: Client
    ) async throws -> ServerResponse? {
        let app = hello.bundleIdentifier
        let connection = client.connection.id
        switch request {
        case let .setDelegate(isSet):
            clients.setDelegate(connection, isSet)
            // A delegate set after a restart of the service is handed what the old one could not
            // deliver, and what waits for the extension unsent is the delegate's now.
            if isSet { await delegateSet(app: app) }
            return .done
        case let .schedule(download):
            return try await schedule(download, app: app, client: client)
        case let .startForeground(download):
            return try await startForeground(download, app: app, client: client)
        case let .cancel(download):
            guard let row = try await storeReader.read({ try $0.activeDownload(bundleIdentifier: app, identifier: download.identifier) }) else {
                return failure(.downloadNotScheduled, "The download \(download.identifier.debugSummary) is not scheduled; it may have finished, failed or been cancelled already.")
            }
            try await queue.cancel(id: row.id)
            record(from: client, event: "cancel", app: app, download: download.identifier)
            return .done
        case .fetchCurrentDownloads:
            return .downloads(try await currentDownloads(of: app, for: hello.role).map(\.descriptor))
        case let .fetchCurrentDownloadsPage(after):
            return .currentDownloadsPage(try await currentDownloadsPage(of: app, for: hello.role, after: after))
        case let .acquireExclusiveControl(deadline):
            return acquireExclusiveControl(app: app, deadline: deadline, requestID: id, connection: connection)
        case .releaseExclusiveControl:
            // Recorded before the next holder's grant, so the trace reads in the order it happened.
            record(from: client, event: "releaseExclusiveControl", app: app)
            if let next = arbiter.release(app: app, connection: connection) { grant(next) }
            await deliverFilesHeldUnderControl()
            // An extension that let go with nothing left to do is done with the files it was given;
            // it is asked to terminate once it stays idle for the grace, since it may still ask again.
            await perform(extensionCalls.releasedExclusiveControl(
                app: app, connection: connection, holdsExclusiveControl: arbiter.involves(connection, app: app)))
            return .done
        case let .answerChallenge(deliveryID, answer):
            guard let rowID = handOvers.answer(deliveryID) else {
                return failure(.downloadDoesNotExist, "No challenge \(deliveryID) is waiting: another delegate answered it, or its download ended.")
            }
            try await queue.answerChallenge(id: rowID, answer: answer)
            record(from: client, event: "answerChallenge", app: app, detail: answer.disposition.rawValue)
            return .done
        case let .acknowledgeDelivery(deliveryID):
            await deliveryAcknowledged(deliveryID, by: connection)
            return .done
        }
    }
}
