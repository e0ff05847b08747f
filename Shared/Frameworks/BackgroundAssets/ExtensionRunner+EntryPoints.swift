/*
Abstract:
Runs each extension entry point with the framework's types, and turns what it returns into the wire's.
*/

import BackgroundAssetsIPC
import ServiceClient
import URLChallengeBridge
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ExtensionRunner {
    /// Runs `downloads(for:manifestURL:extensionInfo:)`, with scheduling refused meanwhile.
    /// - Returns: The returned downloads, ordered by identifier.
    func downloads(
        for request: ContentRequestKind, manifestPath: String, restrictedDownloadSizeRemaining: Int?,
        restrictedEssentialDownloadSizeRemaining: Int?
    ) -> [BADownload] {
        let info = BAAppExtensionInfo(
            restrictedDownloadSizeRemaining: restrictedDownloadSizeRemaining,
            restrictedEssentialDownloadSizeRemaining: restrictedEssentialDownloadSizeRemaining)
        let downloads = manager.whileAnsweringContentRequest {
            handler.downloads(
                for: BAContentRequest(request), manifestURL: URL(fileURLWithPath: manifestPath), extensionInfo: info)
        }
        // A set has no order, and its iteration order changes from one launch to the next; sorting
        // makes the queue (among equal priorities) and the trace the same on every run.
        return downloads.sorted { $0.identifier < $1.identifier }
    }

    /// Runs `backgroundDownload(_:finishedWithFileURL:)`; the service deletes the file after the answer.
    func finished(_ download: DownloadDescriptor, filePath: String) {
        handler.backgroundDownload(
            BADownload.make(from: download), finishedWithFileURL: URL(filePath: filePath, directoryHint: .notDirectory))
    }

    /// Runs `backgroundDownload(_:failedWithError:)` with the error the failure stands for.
    func failed(_ download: DownloadDescriptor, failure: WireFailure) {
        handler.backgroundDownload(BADownload.make(from: download), failedWithError: failure.makeError())
    }

    /// Runs `backgroundDownload(_:didReceive:)`.
    /// - Returns: The disposition and credential it chose, in wire form.
    func answer(_ challenge: ChallengeDescriptor, for download: DownloadDescriptor) async -> ChallengeAnswer {
        let (disposition, credential) = await handler.backgroundDownload(
            BADownload.make(from: download), didReceive: challenge.authenticationChallenge)
        return ChallengeAnswer(disposition, credential: credential)
    }

    /// Runs `extensionWillTerminate()`, answers, waits until the service has the answer, and ends the runner.
    func terminate(callID: UInt64) {
        (handler as any _BADownloaderExtensionTermination).extensionWillTerminate()
        // Waiting for the acknowledgement proves the answer left this process before it exits.
        do {
            _ = try manager.connection.send(.core(.extensionCallReturned(callID: callID, result: .done)))
        } catch let error as BAError where error.code == .callerConnectionInvalid {
            // The lost connection ends the runner, and main() says so once.
        } catch {
            StandardError.write("The system did not accept the answer to extensionWillTerminate(): \(error)")
        }
        finish(.terminated)
    }
}
