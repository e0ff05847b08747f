/*
Abstract:
The real service in the test's own process, on a temporary device root and a clock the test advances.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport

extension ManualClock: ServiceClock {}

/// `BackgroundAssetsService` serving its socket in the test process, as `ServiceRunner` serves it in
/// `backgroundassetsd`, but on a ``ManualClock``: a test talks to it with ``RawServiceClient`` and
/// moves time on by hand instead of waiting for deadlines, expiry and idle exit.
final class InProcessService: Sendable {
    let root: TemporaryDeviceRoot
    let paths: DevicePaths
    let clock: ManualClock
    let service: BackgroundAssetsService
    private let listener: UnixSocketListener
    private let connections: ConnectionLoop

    /// Starts a service with short knobs; `configure` changes them.
    init(_ configure: (inout ServiceConfiguration) -> Void = { _ in }) async throws {
        root = try TemporaryDeviceRoot()
        paths = DevicePaths(root: root.url)
        // From the machine's time: the trace stamps its entries with it, and with a device clock
        // (timeScale) running from a far-off date their device times would be nonsense.
        clock = ManualClock(start: .now)
        var configuration = ServiceConfiguration()
        configuration.idleExitAfter = 60
        // The test process speaks for every app and for the tool here: it is none of their executables.
        configuration.trustsClientClaims = true
        configure(&configuration)
        let service = try BackgroundAssetsService(paths: paths, configuration: configuration, wallClock: clock)
        self.service = service
        try await service.start()
        listener = try UnixSocketListener(path: paths.serviceSocket.path)
        connections = try ConnectionLoop(listener: listener) { connection in
            service.activities.run("client \(connection.id)") { await service.serve(connection) }
        }
        connections.start()
    }

    /// A client of the service, introduced as `bundleIdentifier` in `role`. Its calls block: make
    /// them through ``blocking(_:)``, since the service runs on the test process's cooperative threads.
    func client(_ bundleIdentifier: String = "com.example.in-process", role: Hello.Role = .app) async throws -> RawServiceClient {
        let root = paths.root
        return try await blocking { try RawServiceClient(deviceRoot: root, bundleIdentifier: bundleIdentifier, role: role) }
    }

    /// Stops taking connections, then stops the service, as `ServiceRunner` does.
    func stop() async {
        connections.stop()
        listener.close()
        await service.stop()
    }

    /// Starts a service, runs `body` with it, and stops it afterwards, also when `body` throws, so
    /// no extension it launched outlives the test.
    static func with<T>(
        _ configure: @Sendable (inout ServiceConfiguration) -> Void = { _ in },
        isolation: isolated (any Actor)? = #isolation,
        _ body: (InProcessService) async throws -> T
    ) async throws -> T {
        let device = try await InProcessService(configure)
        do {
            let result = try await body(device)
            await device.stop()
            return result
        } catch {
            await device.stop()
            throw error
        }
    }

    /// Waits (in real time, briefly) until the service has set at least `count` timers on its clock.
    func waitForTimers(_ count: Int = 1) async throws {
        try await poll(until: { self.clock.sleeperCount >= count }, "\\(count) timer(s) on the clock")
    }
}
