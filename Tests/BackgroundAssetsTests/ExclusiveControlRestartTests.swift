/*
Abstract:
Tests of exclusive control across a restart of the service: control ends with its connection, and giving it back never ends control taken again since.
*/

@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
import Synchronization
import Testing

@Suite("Exclusive control across a restart of the service", .timeLimit(.minutes(3)))
struct ExclusiveControlRestartTests {
    @Test("A handler that loses the service and takes control again keeps it: the first release is not sent on the new connection")
    func startOverAfterServiceLoss() async throws {
        // The first listing is left unanswered, so the test can drop the connection while the
        // handler waits for it, as a crashing service would.
        let listings = Mutex(0)
        let service = try FakeService { request in
            if case .downloads(.fetchCurrentDownloadsPage) = request, listings.withLock({ $0 += 1; return $0 }) == 1 { return nil }
            return FakeService.healthy(request)
        }
        let manager = BADownloadManagerTests.manager(for: service)
        let outcome: (first: BAError.Code?, second: Bool) = await withCheckedContinuation { continuation in
            manager.withExclusiveControl { acquired, _ in
                guard acquired else { return continuation.resume(returning: (nil, false)) }
                do {
                    _ = try manager.fetchCurrentDownloads()
                    continuation.resume(returning: (nil, false))
                } catch {
                    // Start over from inside the handler, as the sample does.
                    let code = (error as? BAError)?.code
                    manager.withExclusiveControl { again, _ in
                        let listed = (try? manager.fetchCurrentDownloads()) != nil
                        continuation.resume(returning: (code, again && listed))
                    }
                }
            }
            Task {
                if await service.waitFor({ $0.contains(.downloads(.fetchCurrentDownloadsPage(after: 0))) }) { service.dropConnections() }
            }
        }
        #expect(outcome.first == .callerConnectionInvalid)
        #expect(outcome.second, "control taken again, and the listing answered under it")
        // The nested handler's release comes after its listing; it must be the only one, since the
        // first grant ended with its connection.
        #expect(await service.waitFor { requests in
            guard let listing = requests.lastIndex(of: .downloads(.fetchCurrentDownloadsPage(after: 0))) else { return false }
            return requests[listing...].contains(.downloads(.releaseExclusiveControl))
        })
        let requests = service.received
        let acquires = requests.indices.filter { if case .downloads(.acquireExclusiveControl) = requests[$0] { true } else { false } }
        let releases = requests.indices.filter { requests[$0] == .downloads(.releaseExclusiveControl) }
        #expect(acquires.count == 2 && releases.count == 1, "\(requests)")
        #expect(releases.first.map { $0 > acquires[1] } == true, "released after the second grant: \(requests)")
    }
}
