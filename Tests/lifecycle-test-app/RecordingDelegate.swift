/*
Abstract:
The test app's download delegate: records each callback and moves finished files into the container.
*/

import BackgroundAssets
import Foundation
import LifecycleTestKit

/// Records the app's download callbacks and reports each finished download.
final class RecordingDelegate: NSObject, BADownloadManagerDelegate {
    private let log: LifecycleCallLog
    private let filesFolder: URL
    private let onFinished: @Sendable () -> Void
    private let credential: URLCredential?

    /// Creates a delegate.
    /// - Parameters:
    ///   - log: Where callbacks are recorded.
    ///   - filesFolder: Where finished files are moved.
    ///   - credential: What challenges are answered with, or `nil` for default handling.
    ///   - onFinished: Called after each finished download is recorded.
    init(
        log: LifecycleCallLog, filesFolder: URL, credential: URLCredential? = nil,
        onFinished: @escaping @Sendable () -> Void
    ) {
        self.log = log
        self.filesFolder = filesFolder
        self.credential = credential
        self.onFinished = onFinished
        super.init()
    }

    /// Answers a challenge in the async form only, as Apple's sample does.
    func download(_ download: BADownload, didReceive challenge: URLAuthenticationChallenge) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)
    {
        var record = LifecycleCallRecord("challenge")
        record.download = download.identifier
        log.append(record)
        guard let credential, challenge.previousFailureCount == 0 else { return (.performDefaultHandling, nil) }
        return (.useCredential, credential)
    }

    func downloadDidBegin(_ download: BADownload) {
        var record = LifecycleCallRecord("began")
        record.download = download.identifier
        log.append(record)
    }

    func download(_ download: BADownload, failedWithError error: any Error) {
        var record = LifecycleCallRecord("failed")
        record.download = download.identifier
        let bridged = error as NSError
        record.errorDomain = (error as? BAError).map { _ in BAErrorDomain } ?? bridged.domain
        record.errorCode = (error as? BAError)?.code.rawValue ?? bridged.code
        record.errorMessage = "\(error)"
        log.append(record)
    }

    func download(_ download: BADownload, finishedWithFileURL fileURL: URL) {
        var record = LifecycleCallRecord("finished")
        record.download = download.identifier
        // The system deletes the file when this method returns, so move it now.
        record.moveFinishedFile(at: fileURL, into: filesFolder, as: download.identifier)
        log.append(record)
        onFinished()
    }
}
