/*
Abstract:
Tests of callbacks and exclusive control through the download manager and an in-process service.
*/

@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import TestSupport
import Testing

@Suite("Download manager callbacks and exclusive control", .timeLimit(.minutes(3)))
struct BADownloadManagerCallbackTests {
    /// Records every callback as a line, and answers challenges with a fixed credential.
    final class RecordingDelegate: NSObject, BADownloadManagerDelegate {
        let log = Mutex<[String]>([])
        let credential: URLCredential?

        init(credential: URLCredential? = nil) {
            self.credential = credential
        }

        func downloadDidBegin(_ download: BADownload) { record("begin \(download.identifier)") }

        func downloadDidPause(_ download: BADownload) { record("pause \(download.identifier)") }

        func download(
            _ download: BADownload, didWriteBytes bytesWritten: Int64, totalBytesWritten: Int64,
            totalBytesExpectedToWrite: Int64
        ) {
            record("progress \(download.identifier) \(totalBytesWritten)/\(totalBytesExpectedToWrite)")
        }

        func download(_ download: BADownload, failedWithError error: any Error) {
            record("failed \(download.identifier) \((error as? BAError)?.code.rawValue ?? -1)")
        }

        func download(_ download: BADownload, finishedWithFileURL fileURL: URL) {
            record("finished \(download.identifier) \(fileURL.path)")
        }

        func download(
            _ download: BADownload, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            record("challenge \(download.identifier) \(challenge.protectionSpace.realm ?? "")")
            if let credential {
                completionHandler(.useCredential, credential)
            } else {
                completionHandler(.cancelAuthenticationChallenge, nil)
            }
        }

        var lines: [String] { log.withLock { $0 } }

        private func record(_ line: String) { log.withLock { $0.append(line) } }
    }

    @Test("A delegate receives begin, progress, failure and finish in the order the service sent them")
    func callbacksInOrder() async throws {
        let service = try FakeService()
        let manager = BADownloadManagerTests.manager(for: service)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        #expect(await service.waitFor { $0.contains(.downloads(.setDelegate(isSet: true))) })

        let a = SampleDescriptors.make("a", state: .downloading)
        try service.push(.didBegin(download: a))
        try service.push(
            .didWriteBytes(download: a, bytesWritten: 10, totalBytesWritten: 10, totalBytesExpectedToWrite: 40))
        try service.push(.didPause(download: a))
        try service.push(.failed(download: a, failure: .backgroundAssets(code: 102, message: "could not start")))
        try service.push(
            .finished(deliveryID: 9, download: SampleDescriptors.make("b", state: .finished), filePath: "/g/f.tmp"))
        try await poll(until: { delegate.lines.count == 5 }, "the delegate's five callbacks")
        #expect(delegate.lines == ["begin a", "progress a 10/40", "pause a", "failed a 102", "finished b /g/f.tmp"])
        #expect(
            await service.waitFor { $0.contains(.downloads(.acknowledgeDelivery(deliveryID: 9))) }, "the file may go once handled")
    }

    @Test("A challenge answered with a credential sends the credential back")
    func challengeWithCredential() async throws {
        let service = try FakeService()
        let manager = BADownloadManagerTests.manager(for: service)
        let delegate = RecordingDelegate(
            credential: URLCredential(user: "wwdc", password: "s3cret", persistence: .none))
        manager.delegate = delegate
        #expect(await service.waitFor { $0.contains(.downloads(.setDelegate(isSet: true))) })
        let challenge = ChallengeDescriptor(
            host: "localhost", port: 8080, protocol: "http", realm: "protected",
            authenticationMethod: NSURLAuthenticationMethodHTTPBasic, previousFailureCount: 0)
        try service.push(
            .didReceiveChallenge(
                deliveryID: 5, download: SampleDescriptors.make("a", state: .downloading), challenge: challenge))
        let answer = ClientRequest.downloads(.answerChallenge(
            deliveryID: 5, answer: ChallengeAnswer(disposition: .useCredential, user: "wwdc", password: "s3cret")))
        #expect(await service.waitFor { $0.contains(answer) })
        #expect(delegate.lines == ["challenge a protected"])
    }

    @Test("Without a delegate, a challenge gets default handling")
    func challengeWithoutDelegate() async throws {
        let service = try FakeService()
        let manager = BADownloadManagerTests.manager(for: service)
        _ = try manager.fetchCurrentDownloads()
        let challenge = ChallengeDescriptor(
            host: "localhost", port: 1, protocol: "http", realm: nil,
            authenticationMethod: "NSURLAuthenticationMethodDefault",
            previousFailureCount: 1)
        try service.push(
            .didReceiveChallenge(
                deliveryID: 6, download: SampleDescriptors.make("a", state: .waiting), challenge: challenge))
        let answer = ClientRequest.downloads(.answerChallenge(
            deliveryID: 6, answer: ChallengeAnswer(disposition: .performDefaultHandling)))
        #expect(await service.waitFor { $0.contains(answer) })
    }

    @Test("The manager holds its delegate weakly")
    func weakDelegate() throws {
        let service = try FakeService()
        let manager = BADownloadManagerTests.manager(for: service)
        do {
            let delegate = RecordingDelegate()
            manager.delegate = delegate
            #expect(manager.delegate === delegate)
        }
        #expect(manager.delegate == nil)
    }

    @Test("The completion form holds exclusive control while the handler runs, then releases it")
    func exclusiveControlHandler() async throws {
        let service = try FakeService()
        let manager = BADownloadManagerTests.manager(for: service)
        let releasedDuringHandler: Bool = await withCheckedContinuation { continuation in
            manager.withExclusiveControl { acquired, error in
                #expect(acquired && error == nil)
                // Blocking calls are allowed here: the handler does not run on the connection's thread.
                _ = try? manager.fetchCurrentDownloads()
                continuation.resume(returning: service.received.contains(.downloads(.releaseExclusiveControl)))
            }
        }
        #expect(!releasedDuringHandler)
        #expect(await service.waitFor { $0.last == .downloads(.releaseExclusiveControl) })
    }

    @Test("A refused acquisition reports failure to the handler and releases nothing")
    func exclusiveControlRefused() async throws {
        let service = try FakeService { request in
            if case .downloads(.acquireExclusiveControl) = request {
                return .failure(.backgroundAssets(code: 51, message: "deadline passed"))
            }
            return FakeService.healthy(request)
        }
        let manager = BADownloadManagerTests.manager(for: service)
        let outcome: (Bool, Int?) = await withCheckedContinuation { continuation in
            manager.withExclusiveControl(beforeDate: .distantPast) { acquired, error in
                continuation.resume(returning: (acquired, (error as? BAError)?.code.rawValue))
            }
        }
        #expect(outcome.0 == false && outcome.1 == 51)
        #expect(service.received.contains(.downloads(.acquireExclusiveControl(deadline: .distantPast))))
        #expect(!service.received.contains(.downloads(.releaseExclusiveControl)))
    }

    @Test("The async form returns the body's value and releases control even when the body throws")
    func exclusiveControlAsync() async throws {
        struct Stop: Error {}
        let service = try FakeService()
        let manager = BADownloadManagerTests.manager(for: service)
        let value = try await manager.withExclusiveControl { 42 }
        #expect(value == 42)
        await #expect(throws: Stop.self) {
            try await manager.withExclusiveControl(before: .now.addingTimeInterval(60)) { () throws -> Int in
                throw Stop()
            }
        }
        #expect(await service.waitFor { $0.filter { $0 == .downloads(.releaseExclusiveControl) }.count == 2 })
    }
}
