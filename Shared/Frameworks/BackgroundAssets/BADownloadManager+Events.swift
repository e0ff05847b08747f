/*
Abstract:
Turns the service's events into delegate callbacks, and sends back challenge answers and acknowledgements.
*/

import BackgroundAssetsIPC
import ServiceClient
import URLChallengeBridge
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Passes events from the connection's reader thread to the manager, holding the manager weakly.
final class EventForwarder: Sendable {
    private struct WeakManager {
        weak var value: BADownloadManager?
    }

    private let manager = Mutex(WeakManager())

    func attach(_ manager: BADownloadManager) {
        self.manager.withLock { $0.value = manager }
    }

    func forward(_ event: ServerEvent) {
        manager.withLock { $0.value }?.handle(event)
    }

    func forwardDisconnect(reason: String) {
        manager.withLock { $0.value }?.disconnectObservers.notify(reason)
    }
}

extension BADownloadManager {
    /// Routes one event: download events to the delegate, install progress to the launch gate,
    /// entry-point calls to the extension runner.
    ///
    /// Runs on the connection's reader thread, so every route only hands the event on.
    func handle(_ event: ServerEvent) {
        switch event {
        case let .installProgress(_, progress):
            installProgressObservers.notify(progress)
        case let .extensionCall(callID, call):
            // Entry points run on the runner's own thread, not the delegate's: a long
            // backgroundDownload(_:finishedWithFileURL:) must not hold up the app's callbacks, nor they it.
            extensionCallObservers.notify((callID, call))
        case let .didBegin(download), let .didPause(download), let .didWriteBytes(download, _, _, _),
             let .didReceiveChallenge(_, download, _), let .failed(download, _), let .finished(_, download, _):
            // The service has the download: a start of it need not be sent again after a restart.
            connection.withdrawReplay(key: Self.replayKey(forForegroundStartOf: download.identifier))
            // The callback thread keeps callbacks in order, and a slow delegate never stalls the connection.
            callbackThread.async { [self] in deliverToDelegate(event) }
        case .launchTask, .expireTask, .urlSessionEvent, .urlSessionDetached, .notificationWillPresent, .assetPackStatus,
            .notificationResponse:
            // Sent only to the connections of BackgroundTasks, BackgroundURLSessions,
            // UserNotifications and the asset-pack manager, never to this one.
            break
        }
    }

    private func deliverToDelegate(_ event: ServerEvent) {
        let delegate = self.delegate
        switch event {
        case let .didBegin(download):
            delegate?.downloadDidBegin(BADownload.make(from: download))
        case let .didPause(download):
            delegate?.downloadDidPause(BADownload.make(from: download))
        case let .didWriteBytes(download, bytesWritten, totalBytesWritten, totalBytesExpectedToWrite):
            delegate?.download(
                BADownload.make(from: download), didWriteBytes: bytesWritten, totalBytesWritten: totalBytesWritten,
                totalBytesExpectedToWrite: totalBytesExpectedToWrite)
        case let .failed(download, failure):
            delegate?.download(BADownload.make(from: download), failedWithError: failure.makeError())
        case let .finished(deliveryID, download, filePath):
            // The service deletes the file once this is acknowledged, unless the delegate moved it.
            // A file, as the service says: `fileURLWithPath:` would ask the disk whether it is a folder.
            delegate?.download(BADownload.make(from: download), finishedWithFileURL: URL(filePath: filePath, directoryHint: .notDirectory))
            connection.request(.downloads(.acknowledgeDelivery(deliveryID: deliveryID))) { _ in }
        case let .didReceiveChallenge(deliveryID, download, challenge):
            answer(challenge, deliveryID: deliveryID, for: download, delegate: delegate)
        case .installProgress, .extensionCall, .launchTask, .expireTask, .urlSessionEvent, .urlSessionDetached,
            .notificationWillPresent, .assetPackStatus, .notificationResponse:
            // Routed by handle(_:); the delegate has no callback for them.
            break
        }
    }

    private func answer(
        _ challenge: ChallengeDescriptor, deliveryID: UInt64, for download: DownloadDescriptor,
        delegate: (any BADownloadManagerDelegate)?
    ) {
        let connection = self.connection
        let reply: @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void = {
            disposition, credential in
            let answer = ChallengeAnswer(disposition, credential: credential)
            connection.request(.downloads(.answerChallenge(deliveryID: deliveryID, answer: answer))) { _ in }
        }
        guard let delegate else { return reply(.performDefaultHandling, nil) }
        delegate.download(
            BADownload.make(from: download), didReceive: challenge.authenticationChallenge, completionHandler: reply)
    }
}
