/*
Abstract:
Tests of the delegate protocol's defaults for the methods a delegate leaves out.
*/

@testable import BackgroundAssets
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing

@Suite("Download manager delegate", .timeLimit(.minutes(3)))
struct BADownloadManagerDelegateTests {
    /// A delegate that implements only what the sample's SessionManager cares about most.
    final class FinishedOnlyDelegate: NSObject, BADownloadManagerDelegate {
        let finished = Mutex<[String]>([])

        func download(_ download: BADownload, finishedWithFileURL fileURL: URL) {
            finished.withLock { $0.append(download.identifier) }
        }
    }

    /// The object a challenge reports its answer to; these tests read the completion handler instead.
    final class ChallengeSender: NSObject, URLAuthenticationChallengeSender {
        func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
        func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
        func cancel(_ challenge: URLAuthenticationChallenge) {}
        func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
        func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
    }

    @Test("A delegate implements only the callbacks it needs")
    func optionalMethods() {
        let delegate = FinishedOnlyDelegate()
        let download = BADownloadTests.makeDownload()
        delegate.downloadDidBegin(download)
        delegate.downloadDidPause(download)
        delegate.download(download, didWriteBytes: 1, totalBytesWritten: 1, totalBytesExpectedToWrite: 2)
        delegate.download(download, failedWithError: BAError(.downloadFailedToStart))
        delegate.download(download, finishedWithFileURL: URL(fileURLWithPath: "/tmp/x"))
        #expect(delegate.finished.withLock { $0 } == [download.identifier])
    }

    /// A challenge from a local server, as the service presents one.
    static func makeChallenge() -> URLAuthenticationChallenge {
        let space = URLProtectionSpace(
            host: "localhost", port: 8080, protocol: "http", realm: "sessions",
            authenticationMethod: NSURLAuthenticationMethodHTTPBasic)
        return URLAuthenticationChallenge(
            protectionSpace: space, proposedCredential: nil, previousFailureCount: 0, failureResponse: nil,
            error: nil, sender: ChallengeSender())
    }

    @Test("An unanswered challenge gets default handling through the completion-handler form")
    func challengeDefault() async {
        let (disposition, credential) = await ChallengeFormTests.answerThroughCompletionHandler(
            of: FinishedOnlyDelegate(), challenge: Self.makeChallenge())
        #expect(disposition == .performDefaultHandling)
        #expect(credential == nil)
    }

    @Test("An unanswered challenge gets default handling through the async form")
    func challengeDefaultAsync() async {
        let (disposition, credential) = await FinishedOnlyDelegate().download(
            BADownloadTests.makeDownload(), didReceive: Self.makeChallenge())
        #expect(disposition == .performDefaultHandling)
        #expect(credential == nil)
    }
}
