/*
Abstract:
An AssetServer in the test process whose deadlines run on a clock the test advances.
*/

@testable import AssetServer
import Foundation
import ServerRuntime
import TestSupport

/// A ``ManualClock`` as the asset server reads it: monotonic nanoseconds, and waits that end when
/// the test moves the clock past their deadline.
struct ManualDeadlineClock: DeadlineClock {
    let clock: ManualClock

    func now() -> UInt64 { clock.uptimeNanoseconds }

    func poll(_ descriptors: inout [pollfd], until deadline: UInt64) -> Int32 {
        clock.poll(&descriptors, untilUptime: deadline)
    }
}

/// `AssetServer` serving a generated catalog on port 0, on a ``ManualClock``: a test checks the idle,
/// request-head and send-stall deadlines by advancing the clock, and never waits for them.
final class ManualClockServer: Sendable {
    let clock = ManualClock()
    let catalog: Catalog
    let port: Int
    private let folder: TemporaryDirectory
    private let server: AssetServer

    /// Starts a server with `timeouts` on a catalog of `sessionCount` sessions of `sessionSize` bytes.
    init(timeouts: AssetServer.Timeouts, sessionCount: Int = 1, sessionSize: Int64 = 1000) throws {
        folder = try TemporaryDirectory(prefix: "asset-server-clock")
        catalog = try Catalog.prepare(at: folder.url, sessionCount: sessionCount, sessionSize: sessionSize)
        server = AssetServer(
            configuration: .init(port: 0, catalogDirectory: folder.url, timeouts: timeouts),
            clock: ManualDeadlineClock(clock: clock))
        port = try server.start()
    }

    /// Stops the server, cutting off every connection, and removes the catalog.
    func stop() {
        server.shutdown(gracePeriod: .zero)
        folder.remove()
    }

    /// Waits (in real time, briefly) until a connection waits for a deadline `ahead` on the clock.
    func waitForDeadline(_ ahead: Duration, _ description: String) async throws {
        try await poll(until: { self.clock.pendingDeadlines.contains(ahead) },
                       "the server to wait for \(description), \(ahead) ahead; it waits for \(clock.pendingDeadlines)")
    }

    /// Answers a request on a new connection, as a client other than the one under test.
    func fetchManifest() async throws -> RawHTTPResponse {
        let client = try RawHTTPClient(port: port)
        defer { client.close() }
        return try await client.request("GET", "/manifest.json", headers: ["Connection": "close"])
    }
}
