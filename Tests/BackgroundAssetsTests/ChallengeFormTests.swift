/*
Abstract:
Tests that the framework calls whichever challenge form a delegate implements.
*/

@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("Challenge forms")
struct ChallengeFormTests {
    /// Implements only the async form, as Apple's sample does; plain mutable state, no `Sendable`.
    final class AsyncFormDelegate: NSObject, BADownloadManagerDelegate {
        var challengedHosts: [String] = []

        func download(_ download: BADownload, didReceive challenge: URLAuthenticationChallenge) async
            -> (URLSession.AuthChallengeDisposition, URLCredential?)
        {
            challengedHosts.append(challenge.protectionSpace.host)
            return (.useCredential, URLCredential(user: "async", password: "secret", persistence: .none))
        }
    }

    /// Implements only the completion-handler form.
    final class CompletionFormDelegate: NSObject, BADownloadManagerDelegate {
        var challengeCount = 0

        func download(
            _ download: BADownload, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            challengeCount += 1
            completionHandler(.useCredential, URLCredential(user: "handler", password: "secret", persistence: .none))
        }
    }

    /// Asks a delegate through the completion-handler form, the one the framework calls.
    static func answerThroughCompletionHandler(
        of delegate: some BADownloadManagerDelegate, challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, String?) {
        await withCheckedContinuation { continuation in
            delegate.download(BADownloadTests.makeDownload(), didReceive: challenge) { disposition, credential in
                continuation.resume(returning: (disposition, credential?.user))
            }
        }
    }

    @Test("A delegate with only the async form answers the framework's completion-handler call")
    func asyncFormAnswers() async {
        let delegate = AsyncFormDelegate()
        let (disposition, user) = await Self.answerThroughCompletionHandler(
            of: delegate, challenge: BADownloadManagerDelegateTests.makeChallenge())
        #expect(disposition == .useCredential)
        #expect(user == "async")
        #expect(delegate.challengedHosts == ["localhost"])
    }

    @Test("A delegate with only the completion-handler form answers, and so does its async form")
    func completionFormAnswers() async {
        let delegate = CompletionFormDelegate()
        let (disposition, user) = await Self.answerThroughCompletionHandler(
            of: delegate, challenge: BADownloadManagerDelegateTests.makeChallenge())
        #expect(disposition == .useCredential)
        #expect(user == "handler")
        let (asyncDisposition, credential) = await delegate.download(
            BADownloadTests.makeDownload(), didReceive: BADownloadManagerDelegateTests.makeChallenge())
        #expect(asyncDisposition == .useCredential)
        #expect(credential?.user == "handler")
        #expect(delegate.challengeCount == 2)
    }
}

@Suite("Challenge forms through the service", .timeLimit(.minutes(3)))
struct ChallengeFormServiceTests {
    @Test("A delegate with only the async form answers the service's challenge with its credential")
    func asyncFormThroughService() async throws {
        let service = try FakeService()
        let manager = BADownloadManagerTests.manager(for: service)
        let delegate = ChallengeFormTests.AsyncFormDelegate()
        manager.delegate = delegate
        #expect(await service.waitFor { $0.contains(.downloads(.setDelegate(isSet: true))) })
        let challenge = ChallengeDescriptor(
            host: "localhost", port: 8080, protocol: "http", realm: "protected",
            authenticationMethod: NSURLAuthenticationMethodHTTPBasic, previousFailureCount: 0)
        try service.push(
            .didReceiveChallenge(
                deliveryID: 7, download: SampleDescriptors.make("a", state: .downloading), challenge: challenge))
        let answer = ClientRequest.downloads(.answerChallenge(
            deliveryID: 7, answer: ChallengeAnswer(disposition: .useCredential, user: "async", password: "secret")))
        #expect(await service.waitFor { $0.contains(answer) })
        withExtendedLifetime(delegate) {}
    }

    @Test("A delegate that implements neither form gets default handling from the service's challenge")
    func neitherFormThroughService() async throws {
        let service = try FakeService()
        let manager = BADownloadManagerTests.manager(for: service)
        let delegate = BADownloadManagerDelegateTests.FinishedOnlyDelegate()
        manager.delegate = delegate
        #expect(await service.waitFor { $0.contains(.downloads(.setDelegate(isSet: true))) })
        let challenge = ChallengeDescriptor(
            host: "localhost", port: 8080, protocol: "http", realm: "protected",
            authenticationMethod: NSURLAuthenticationMethodHTTPBasic, previousFailureCount: 0)
        try service.push(
            .didReceiveChallenge(
                deliveryID: 8, download: SampleDescriptors.make("a", state: .downloading), challenge: challenge))
        let answer = ClientRequest.downloads(.answerChallenge(
            deliveryID: 8, answer: ChallengeAnswer(disposition: .performDefaultHandling)))
        #expect(await service.waitFor { $0.contains(answer) })
        withExtendedLifetime(delegate) {}
    }
}
