/*
Abstract:
Tests that a foreground start is sent again to a service that restarted before the download's first callback, and only then.
*/

@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Foreground starts across a restart of the service", .timeLimit(.minutes(3)))
struct ForegroundStartReplayTests {
    private static func starts(of identifier: String, in requests: [ClientRequest]) -> Int {
        requests.filter { if case let .downloads(.startForeground(download)) = $0 { download.identifier == identifier } else { false } }.count
    }

    /// How many connections the app opened: each begins with `hello`.
    private static func connections(in requests: [ClientRequest]) -> Int {
        requests.filter { if case .hello = $0 { true } else { false } }.count
    }

    @Test("A start without a callback yet is sent again after a restart; one with a callback, or ended, is not")
    func replayedUntilItsFirstCallback() async throws {
        let service = try FakeService()
        let manager = BADownloadManagerTests.manager(for: service)
        let delegate = BADownloadManagerCallbackTests.RecordingDelegate()
        manager.delegate = delegate
        #expect(await service.waitFor { $0.contains(.downloads(.setDelegate(isSet: true))) })

        try manager.startForegroundDownload(BADownloadTests.makeDownload(identifier: "waiting"))
        try manager.startForegroundDownload(BADownloadTests.makeDownload(identifier: "begun"))
        try service.push(.didBegin(download: SampleDescriptors.make("begun", state: .downloading)))
        try await poll(until: { delegate.lines.contains("begin begun") }, "the callback of the download that began")

        // The service goes away, as one killed between its answer and the row's insert: the app,
        // which waits for callbacks, connects again at once and says again what it had started.
        service.dropConnections()
        #expect(await service.waitFor { Self.starts(of: "waiting", in: $0) == 2 }, "\(service.received)")
        #expect(Self.starts(of: "begun", in: service.received) == 1)

        // Its callback comes on the new connection; a second restart sends nothing again.
        try service.push(.didBegin(download: SampleDescriptors.make("waiting", state: .downloading)))
        try await poll(until: { delegate.lines.contains("begin waiting") }, "the callback of the replayed start")
        service.dropConnections()
        #expect(await service.waitFor { Self.connections(in: $0) == 3 }, "\(service.received)")
        // The replays come right after the connection's hello and registrations, before this cancel.
        try manager.cancel(BADownloadTests.makeDownload(identifier: "other"))
        #expect(Self.starts(of: "waiting", in: service.received) == 2)
        #expect(Self.starts(of: "begun", in: service.received) == 1)
    }

    @Test("A start answered as already ended is not kept, and a start that fails is not kept")
    func endedOrRefusedStartsAreNotKept() async throws {
        let service = try FakeService { request in
            switch request {
            case let .downloads(.startForeground(download)) where download.identifier == "ended":
                var ended = download
                ended.state = .finished
                return .download(ended)
            case let .downloads(.startForeground(download)) where download.identifier == "refused":
                return .failure(.backgroundAssets(code: BAError.Code.downloadFailedToStart.rawValue, message: "no"))
            default:
                return FakeService.healthy(request)
            }
        }
        let manager = BADownloadManagerTests.manager(for: service)
        let delegate = BADownloadManagerCallbackTests.RecordingDelegate()
        manager.delegate = delegate
        #expect(await service.waitFor { $0.contains(.downloads(.setDelegate(isSet: true))) })
        try manager.startForegroundDownload(BADownloadTests.makeDownload(identifier: "ended"))
        #expect(throws: BAError.self) { try manager.startForegroundDownload(BADownloadTests.makeDownload(identifier: "refused")) }
        try manager.startForegroundDownload(BADownloadTests.makeDownload(identifier: "kept"))

        service.dropConnections()
        #expect(await service.waitFor { Self.starts(of: "kept", in: $0) == 2 }, "\(service.received)")
        try manager.cancel(BADownloadTests.makeDownload(identifier: "other"))
        #expect(Self.starts(of: "ended", in: service.received) == 1)
        #expect(Self.starts(of: "refused", in: service.received) == 1)
    }
}
