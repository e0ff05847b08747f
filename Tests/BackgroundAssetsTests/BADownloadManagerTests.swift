/*
Abstract:
Tests of the download manager against an in-process service: requests, refusals, and errors.
*/

@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ServiceClient
import Synchronization
import TestSupport
import Testing

@Suite("Download manager", .timeLimit(.minutes(3)))
struct BADownloadManagerTests {
    static let app = ProcessIdentity(bundleIdentifier: "com.example.sessions", role: .app)

    static func manager(for service: FakeService, identity: ProcessIdentity = app) -> BADownloadManager {
        BADownloadManager(paths: service.paths, identity: identity, launcher: nil)
    }

    @Test("The first call introduces the app, then schedules the download")
    func schedule() throws {
        let service = try FakeService()
        let manager = Self.manager(for: service)
        let download = BADownloadTests.makeDownload()
        try manager.scheduleDownload(download)
        let received = service.received
        guard case let .hello(hello)? = received.first else {
            Issue.record("the first request is not hello: \(received)")
            return
        }
        #expect(hello.bundleIdentifier == "com.example.sessions" && hello.role == .app)
        #expect(hello.protocolVersion == WireProtocol.version)
        #expect(received.dropFirst().first == .downloads(.schedule(download: download.wireDescriptor)))
        try manager.scheduleDownload(BADownloadTests.makeDownload(identifier: "second"))
        #expect(service.received.filter { if case .hello = $0 { true } else { false } }.count == 1, "one connection")
    }

    @Test("Essential and invalid downloads are refused without asking the service")
    func localRefusals() throws {
        let service = try FakeService()
        let manager = Self.manager(for: service)
        do {
            try manager.scheduleDownload(BADownloadTests.makeDownload(essential: true))
        } catch BAError.downloadEssentialDownloadNotPermitted {
        } catch {
            Issue.record("expected downloadEssentialDownloadNotPermitted, got \(error)")
        }
        do {
            try manager.startForegroundDownload(BADownloadTests.makeDownload(identifier: ""))
        } catch BAError.downloadInvalid {
        } catch {
            Issue.record("expected downloadInvalid, got \(error)")
        }
        #expect(service.received.isEmpty)
    }

    @Test("The extension may not start foreground downloads")
    func foregroundFromExtension() throws {
        let service = try FakeService()
        let manager = Self.manager(
            for: service, identity: ProcessIdentity(bundleIdentifier: "com.example.sessions", role: .extension))
        do {
            try manager.startForegroundDownload(BADownloadTests.makeDownload())
            Issue.record("the call should be refused")
        } catch let error as BAError {
            #expect(error.code == .callFromExtensionNotAllowed)
            #expect(error.message.contains("wwdc2023-10108"))
        }
        #expect(service.received.isEmpty)
    }

    @Test("The service's refusal reaches the caller with its code and message")
    func serviceRefusal() throws {
        let message = "The app already has a download \"a\" in flight."
        let service = try FakeService { request in
            if case .downloads(.schedule) = request { return .failure(.backgroundAssets(code: 100, message: message)) }
            return FakeService.healthy(request)
        }
        #expect(throws: BAError(.downloadAlreadyScheduled, message: message)) {
            try Self.manager(for: service).scheduleDownload(BADownloadTests.makeDownload())
        }
    }

    @Test("Current downloads arrive page by page as snapshots through all three forms, each download once")
    func fetchCurrentDownloads() async throws {
        // Three pages; "a" finished between the first page and the last, which lists it again.
        let a = SampleDescriptors.make("a", state: .downloading)
        var aFinished = a
        aFinished.state = .finished
        let pages: [Int64: CurrentDownloadsPage] = [
            0: CurrentDownloadsPage(downloads: [a], moreAfter: 7),
            7: CurrentDownloadsPage(downloads: [SampleDescriptors.make("b", state: .waiting)], moreAfter: 9),
            9: CurrentDownloadsPage(downloads: [SampleDescriptors.make("c", state: .waiting), aFinished], moreAfter: nil),
        ]
        let service = try FakeService { request in
            if case let .downloads(.fetchCurrentDownloadsPage(after)) = request, let page = pages[after] { return .currentDownloadsPage(page) }
            return FakeService.healthy(request)
        }
        let manager = Self.manager(for: service)
        let blocking = try manager.fetchCurrentDownloads()
        #expect(blocking.map(\.identifier) == ["a", "b", "c"])
        #expect(blocking.map(\.state) == [.finished, .waiting, .waiting])
        #expect(blocking.allSatisfy { type(of: $0) == BAURLDownload.self })
        #expect(try await manager.currentDownloads.map(\.identifier) == ["a", "b", "c"])
        let viaHandler: [String] = try await withCheckedThrowingContinuation { continuation in
            manager.fetchCurrentDownloads { downloads, error in
                if let error { return continuation.resume(throwing: error) }
                continuation.resume(returning: downloads.map(\.identifier))
            }
        }
        #expect(viaHandler == ["a", "b", "c"])
        #expect(service.received.filter { if case .downloads(.fetchCurrentDownloadsPage) = $0 { true } else { false } }.count == 9)
    }

    @Test("A page whose cursor does not move on fails the call instead of asking for ever")
    func currentDownloadsCursorStuck() throws {
        let service = try FakeService { request in
            if case .downloads(.fetchCurrentDownloadsPage) = request {
                return .currentDownloadsPage(CurrentDownloadsPage(downloads: [], moreAfter: 0))
            }
            return FakeService.healthy(request)
        }
        do {
            _ = try Self.manager(for: service).fetchCurrentDownloads()
            Issue.record("the call should fail")
        } catch let error as BAError {
            #expect(error.message.contains("cannot be gathered"))
        }
    }

    @Test("Cancelling a download the service does not know reports downloadNotScheduled")
    func cancel() throws {
        let service = try FakeService { request in
            if case .downloads(.cancel) = request { return .failure(.backgroundAssets(code: 101, message: "gone")) }
            return FakeService.healthy(request)
        }
        do {
            try Self.manager(for: service).cancel(BADownloadTests.makeDownload())
            Issue.record("cancel should fail")
        } catch BAError.downloadNotScheduled {}
    }

    @Test("With no service listening, calls fail with a message naming the socket")
    func serviceUnreachable() throws {
        let service = try FakeService()
        service.stop()
        do {
            _ = try Self.manager(for: service).fetchCurrentDownloads()
            Issue.record("the call should fail")
        } catch let error as BAError {
            #expect(error.code == .callerConnectionInvalid)
            #expect(error.message.contains(service.paths.serviceSocket.path))
        }
    }

    @Test("A service that refuses the hello refuses every call")
    func helloRefused() throws {
        let service = try FakeService { request in
            if case .hello = request { return .failure(.backgroundAssets(code: 55, message: "not installed")) }
            return FakeService.healthy(request)
        }
        #expect(throws: BAError(.callerConnectionNotAccepted, message: "not installed")) {
            try Self.manager(for: service).fetchCurrentDownloads()
        }
    }

    @Test("A dropped connection fails the waiting call, and the next call reconnects")
    func reconnect() async throws {
        let service = try FakeService { request in
            if case .downloads(.fetchCurrentDownloadsPage) = request { return nil }
            return FakeService.healthy(request)
        }
        let manager = Self.manager(for: service)
        // The completion form, so no test thread blocks while the service withholds its answer. Called
        // here rather than in an async let's child task: the wait below then covers the request's way
        // to the service alone, not a turn on the cooperative pool that a full run keeps busy.
        let failure = Mutex<BAError.Code??>(nil)
        manager.fetchCurrentDownloads { _, error in
            let code = (error as? BAError)?.code
            failure.withLock { $0 = .some(code) }
        }
        let arrived = await service.waitFor { $0.contains(.downloads(.fetchCurrentDownloadsPage(after: 0))) }
        #expect(arrived)
        // Stopped outright when the request never arrived, so the call fails instead of waiting for ever.
        if arrived { service.dropConnections() } else { service.stop() }
        let code = try await poll("the waiting call to fail") { failure.withLock { $0 } }
        #expect(code == .callerConnectionInvalid)
        guard arrived else { return }
        try manager.scheduleDownload(BADownloadTests.makeDownload())
        #expect(service.received.filter { if case .hello = $0 { true } else { false } }.count == 2)
    }

    @Test("A manager that is no longer used closes its connection")
    func discardedManagerDisconnects() async throws {
        let service = try FakeService()
        do {
            let manager = Self.manager(for: service)
            _ = try manager.fetchCurrentDownloads()
        }
        try await poll(until: { service.endedConnectionCount > 0 }, "the discarded manager's connection to end")
        #expect(service.endedConnectionCount == 1)
    }
}

/// Descriptors as the service would send them.
enum SampleDescriptors {
    static func make(_ identifier: String, state: DownloadDescriptor.State) -> DownloadDescriptor {
        var descriptor = BADownloadTests.makeDownload(identifier: identifier).wireDescriptor
        descriptor.state = state
        return descriptor
    }
}
