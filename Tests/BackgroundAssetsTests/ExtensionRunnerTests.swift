/*
Abstract:
Tests of the extension runner against an in-process service: check-in, entry-point calls, answers, and endings.
*/

@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ServiceClient
import Synchronization
import Testing
import TestSupport

@Suite("Extension runner", .timeLimit(.minutes(3)))
struct ExtensionRunnerTests {
    static let identity = ProcessIdentity(bundleIdentifier: "com.example.sessions", role: .extension)

    /// Starts a runner for an extension on a manager that presents itself as the extension.
    static func start(_ handler: RecordingExtension, service: FakeService) -> (BADownloadManager, RunningExtension) {
        let manager = BADownloadManagerTests.manager(for: service, identity: identity)
        return (manager, RunningExtension(ExtensionRunner(manager: manager, handler: handler)))
    }

    /// Every answer the service received, in order.
    static func returns(_ requests: [ClientRequest]) -> [(callID: UInt64, result: ExtensionCallResult)] {
        requests.compactMap { request in
            guard case let .core(.extensionCallReturned(callID, result)) = request else { return nil }
            return (callID, result)
        }
    }

    /// Ends a runner the way the service does, so no test leaves one behind.
    static func terminate(_ running: RunningExtension, service: FakeService) async throws {
        try service.push(.extensionCall(callID: 999, call: .willTerminate))
        #expect(await running.waitForOutcome() == .terminated)
    }

    @Test("The extension checks in, then answers each entry point in the order the calls arrived")
    func answersInOrder() async throws {
        let service = try FakeService()
        let b = BADownloadTests.makeDownload(identifier: "b", essential: true)
        let a = BADownloadTests.makeDownload(identifier: "a", priority: .max)
        let handler = RecordingExtension { _, _, _ in [b, a] }
        let (_, running) = Self.start(handler, service: service)
        #expect(await service.waitFor { $0.contains(.core(.extensionCheckIn)) })
        guard case let .hello(hello)? = service.received.first else {
            Issue.record("the first request is not hello: \(service.received)")
            return
        }
        #expect(hello.role == .extension)
        #expect(service.received.dropFirst().first == .core(.extensionCheckIn))

        var manifest = SampleDescriptors.make("manifest", state: .failed)
        manifest.kind = .manifest
        try service.push(
            .extensionCall(
                callID: 1,
                call: .downloads(
                    request: .install, manifestPath: "/tmp/manifest.json", restrictedDownloadSizeRemaining: 1000,
                    restrictedEssentialDownloadSizeRemaining: nil)))
        try service.push(
            .extensionCall(
                callID: 2, call: .finished(download: SampleDescriptors.make("a", state: .finished), filePath: "/tmp/a.mov")))
        try service.push(
            .extensionCall(
                callID: 3, call: .failed(download: manifest, failure: .backgroundAssets(code: 103, message: "Gone."))))
        #expect(await service.waitFor { Self.returns($0).count == 3 })

        let returned = Self.returns(service.received)
        #expect(returned.map(\.callID) == [1, 2, 3])
        #expect(returned.first?.result == .downloads([a.wireDescriptor, b.wireDescriptor]))
        #expect(returned.dropFirst().map(\.result) == [.done, .done])
        #expect(
            handler.lines == [
                "downloads install /tmp/manifest.json 1000 unrestricted",
                "finished a BAURLDownload /tmp/a.mov",
                "failed manifest other 103 Gone.",
            ])
        try await Self.terminate(running, service: service)
    }

    @Test("A returned download keeps its essential flag, priority and kind on the wire")
    func returnedDescriptors() async throws {
        let service = try FakeService()
        let essential = BADownloadTests.makeDownload(identifier: "essential", essential: true, priority: .min)
        let handler = RecordingExtension { _, _, _ in [essential] }
        let (_, running) = Self.start(handler, service: service)
        #expect(await service.waitFor { $0.contains(.core(.extensionCheckIn)) })
        try service.push(
            .extensionCall(
                callID: 7,
                call: .downloads(
                    request: .update, manifestPath: "/tmp/m.json", restrictedDownloadSizeRemaining: nil,
                    restrictedEssentialDownloadSizeRemaining: 4096)))
        #expect(await service.waitFor { !Self.returns($0).isEmpty })
        guard case let .downloads(descriptors)? = Self.returns(service.received).first?.result else {
            Issue.record("downloads(for:) was not answered with downloads: \(service.received)")
            return
        }
        #expect(descriptors.count == 1)
        #expect(descriptors.first?.isEssential == true)
        #expect(descriptors.first?.priority == -1000)
        #expect(descriptors.first?.kind == .url)
        #expect(descriptors.first?.fileSize == 4096)
        #expect(handler.lines == ["downloads update /tmp/m.json unrestricted 4096"])
        try await Self.terminate(running, service: service)
    }

    @Test("2,500 returned downloads go in two parts of 1,000, then the return with the last 500, essential first, then by priority")
    func manyDownloadsInParts() async throws {
        let service = try FakeService()
        // A few essential ones and a few of each priority among them, so a Set's order would scatter them.
        let downloads = (0..<2_500).map {
            BADownloadTests.makeDownload(
                identifier: "d\($0)", essential: $0 % 500 == 7, priority: $0 % 250 == 3 ? .max : $0 % 250 == 5 ? .min : .default)
        }
        let handler = RecordingExtension { _, _, _ in Set(downloads) }
        let (_, running) = Self.start(handler, service: service)
        #expect(await service.waitFor { $0.contains(.core(.extensionCheckIn)) })
        try service.push(
            .extensionCall(
                callID: 4,
                call: .downloads(
                    request: .install, manifestPath: "/tmp/m.json", restrictedDownloadSizeRemaining: nil,
                    restrictedEssentialDownloadSizeRemaining: nil)))
        #expect(await service.waitFor { !Self.returns($0).isEmpty })
        var parts: [[DownloadDescriptor]] = []
        var last: [DownloadDescriptor] = []
        for request in service.received {
            switch request {
            case let .core(.extensionCallReturnedPart(callID, part)):
                #expect(callID == 4)
                #expect(last.isEmpty, "a part came after the return")
                parts.append(part)
            case let .core(.extensionCallReturned(callID, .downloads(rest))):
                #expect(callID == 4)
                last = rest
            default:
                break
            }
        }
        #expect(parts.map(\.count) == [1_000, 1_000])
        #expect(last.count == 500)
        let sent = (parts.flatMap { $0 } + last).map(\.uniqueIdentifier)
        #expect(Set(sent) == Set(downloads.map(\.uniqueIdentifier)))
        #expect(sent.count == downloads.count, "each download once")
        // The order the service admits one answer in, so the allowance takes the same downloads from parts.
        let order = (parts.flatMap { $0 } + last).map { ($0.isEssential ? 1 : 0, $0.priority) }
        #expect(zip(order, order.dropFirst()).allSatisfy { $0 >= $1 }, "essential first, then higher priority")
        #expect(parts.first?.prefix(5).allSatisfy(\.isEssential) == true)
        try await Self.terminate(running, service: service)
    }

    @Test("Parts wait for the service's acknowledgement: two at most go unanswered, and the return follows the last")
    func partsWaitForAcknowledgement() async throws {
        // Parts are left unanswered until the test answers them, as a service busy scheduling would.
        let service = try FakeService { request in
            if case .core(.extensionCallReturnedPart) = request { return nil }
            return FakeService.healthy(request)
        }
        let downloads = (0..<4_500).map { BADownloadTests.makeDownload(identifier: "d\($0)") }
        let handler = RecordingExtension { _, _, _ in Set(downloads) }
        let (_, running) = Self.start(handler, service: service)
        #expect(await service.waitFor { $0.contains(.core(.extensionCheckIn)) })
        try service.push(
            .extensionCall(
                callID: 6,
                call: .downloads(
                    request: .install, manifestPath: "/tmp/m.json", restrictedDownloadSizeRemaining: nil,
                    restrictedEssentialDownloadSizeRemaining: nil)))
        func parts(_ requests: [ClientRequest]) -> Int {
            requests.filter { if case .core(.extensionCallReturnedPart) = $0 { true } else { false } }.count
        }
        // Four parts and the return: each answer lets one more message go.
        for answered in 0..<4 {
            let sent = min(answered + 2, 4)
            #expect(await service.waitFor { parts($0) >= sent })
            #expect(parts(service.received) == sent, "more than two parts unanswered")
            // The return follows the last part at once: the service reads a connection in order.
            if sent < 4 { #expect(Self.returns(service.received).isEmpty, "the return overtook parts not sent yet") }
            #expect(try service.answer({ if case .core(.extensionCallReturnedPart) = $0 { true } else { false } }, with: .done))
        }
        #expect(await service.waitFor { !Self.returns($0).isEmpty })
        try await Self.terminate(running, service: service)
    }

    @Test("A part is sent only while fewer than the window are unanswered, whenever the answers come")
    func partWindow() async throws {
        // What the sender saw: each part sent with the answers given before it, and the answers to give.
        final class Log: Sendable {
            let state = Mutex<(sent: [(part: Int, answeredBefore: Int)], answers: [@Sendable () -> Void], answered: Int)>(([], [], 0))
        }
        let log = Log()
        let sender = Thread {
            ExtensionRunner.send(Array(0..<6), window: 2) { part, answered in
                log.state.withLock { $0.sent.append((part, $0.answered)); $0.answers.append(answered) }
            }
        }
        sender.start()
        // Answers one part each time another is sent, the oldest first, as a service scheduling them in order would.
        for answer in 0..<6 {
            try await poll(until: { log.state.withLock { $0.sent.count } >= min(answer + 2, 6) })
            log.state.withLock { state in
                state.answered += 1
                state.answers[answer]()
            }
        }
        let sent = log.state.withLock { $0.sent }
        #expect(sent.map(\.part) == Array(0..<6), "in order")
        for (index, entry) in sent.enumerated() {
            #expect(index - entry.answeredBefore < 2, "part \(index) sent with \(index - entry.answeredBefore) unanswered")
        }
    }

    @Test("A challenge is answered by the async method, even while another entry point runs")
    func challengeWhileFinishedRuns() async throws {
        let service = try FakeService()
        let credential = URLCredential(user: "ada", password: "secret", persistence: .forSession)
        let handler = RecordingExtension(holdFinished: true, credential: credential)
        let (_, running) = Self.start(handler, service: service)
        defer { handler.releaseFinished?.signal() }
        #expect(await service.waitFor { $0.contains(.core(.extensionCheckIn)) })

        try service.push(
            .extensionCall(
                callID: 1, call: .finished(download: SampleDescriptors.make("a", state: .finished), filePath: "/tmp/a")))
        let challenge = ChallengeDescriptor(
            host: "127.0.0.1", port: 8080, protocol: "http", realm: "sessions",
            authenticationMethod: NSURLAuthenticationMethodHTTPBasic, previousFailureCount: 0)
        try service.push(
            .extensionCall(
                callID: 2,
                call: .challenge(download: SampleDescriptors.make("p", state: .downloading), challenge: challenge)))

        let expected = ChallengeAnswer(disposition: .useCredential, user: "ada", password: "secret")
        #expect(await service.waitFor { Self.returns($0).contains { $0.callID == 2 } })
        #expect(Self.returns(service.received).map(\.callID) == [2])
        #expect(Self.returns(service.received).first?.result == .challengeAnswer(expected))
        #expect(handler.lines == ["finished a BAURLDownload /tmp/a", "challenge p sessions"])

        handler.releaseFinished?.signal()
        #expect(await service.waitFor { Self.returns($0).map(\.callID) == [2, 1] })
        try await Self.terminate(running, service: service)
    }

    @Test("Scheduling inside downloads(for:) is refused with code 50, and works again once it returns")
    func schedulingRefusedDuringContentRequest() async throws {
        let service = try FakeService()
        let refusal = Mutex<BAError?>(nil)
        let manager = BADownloadManagerTests.manager(for: service, identity: Self.identity)
        let handler = RecordingExtension { _, _, _ in
            do {
                try manager.scheduleDownload(BADownloadTests.makeDownload(identifier: "inside"))
            } catch {
                refusal.withLock { $0 = error as? BAError }
            }
            return []
        }
        let running = RunningExtension(ExtensionRunner(manager: manager, handler: handler))
        #expect(await service.waitFor { $0.contains(.core(.extensionCheckIn)) })
        try service.push(
            .extensionCall(
                callID: 1,
                call: .downloads(
                    request: .periodic, manifestPath: "/tmp/m.json", restrictedDownloadSizeRemaining: nil,
                    restrictedEssentialDownloadSizeRemaining: nil)))
        #expect(await service.waitFor { !Self.returns($0).isEmpty })

        let error = try #require(refusal.withLock { $0 })
        #expect(error.code == .callFromExtensionNotAllowed)
        #expect(error.code.rawValue == 50)
        #expect(error.message.contains("\"inside\""))
        #expect(error.message.contains("Return it from that method"))
        #expect(Self.returns(service.received).first?.result == .downloads([]))

        try manager.scheduleDownload(BADownloadTests.makeDownload(identifier: "after"))
        let scheduled = service.received.compactMap { request -> String? in
            guard case let .downloads(.schedule(download)) = request else { return nil }
            return download.identifier
        }
        #expect(scheduled == ["after"])
        try await Self.terminate(running, service: service)
    }

    @Test("willTerminate calls extensionWillTerminate, and the runner ends once the service has the answer")
    func willTerminate() async throws {
        let service = try FakeService()
        let handler = RecordingExtension()
        let (_, running) = Self.start(handler, service: service)
        #expect(await service.waitFor { $0.contains(.core(.extensionCheckIn)) })
        #expect(running.outcome == nil)

        try service.push(.extensionCall(callID: 5, call: .willTerminate))
        #expect(await running.waitForOutcome() == .terminated)
        // Checked at once, without waiting: the runner ended only after the service acknowledged.
        #expect(service.received.last == .core(.extensionCallReturned(callID: 5, result: .done)))
        #expect(handler.lines == ["willTerminate"])
    }

    @Test("Losing the connection to the service ends the runner")
    func connectionLost() async throws {
        let service = try FakeService()
        let (_, running) = Self.start(RecordingExtension(), service: service)
        #expect(await service.waitFor { $0.contains(.core(.extensionCheckIn)) })
        #expect(running.outcome == nil)

        service.dropConnections()
        guard case let .connectionLost(reason)? = await running.waitForOutcome() else {
            Issue.record("the runner did not end with a lost connection: \(String(describing: running.outcome))")
            return
        }
        #expect(!reason.isEmpty)
    }

    @Test("An extension that cannot reach the service ends at once, saying where it looked")
    func serviceUnreachable() async throws {
        let service = try FakeService()
        service.stop()
        let (_, running) = Self.start(RecordingExtension(), service: service)
        guard case let .connectionLost(reason)? = await running.waitForOutcome() else {
            Issue.record("the runner did not end with a lost connection: \(String(describing: running.outcome))")
            return
        }
        #expect(reason.contains(service.paths.serviceSocket.path))
    }

    @Test("A check-in the service refuses ends the runner with the service's reason")
    func checkInRefused() async throws {
        let service = try FakeService { request in
            guard case .core(.extensionCheckIn) = request else { return FakeService.healthy(request) }
            return .failure(.backgroundAssets(code: 55, message: "No extension of com.example.sessions was launched."))
        }
        let (_, running) = Self.start(RecordingExtension(), service: service)
        guard case let .checkInRefused(reason)? = await running.waitForOutcome() else {
            Issue.record("the runner did not end with a refused check-in: \(String(describing: running.outcome))")
            return
        }
        #expect(reason.contains("No extension of com.example.sessions was launched."))
    }
}
