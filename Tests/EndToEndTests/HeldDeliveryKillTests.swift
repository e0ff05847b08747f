/*
Abstract:
End-to-end: a held file (finished while its app was away, or while the app held exclusive control) survives a kill -9 of the service, and reaches the app's delegate.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Held files survive kills", .serialized, .timeLimit(.minutes(3)))
struct HeldDeliveryKillTests {
    static let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }

    @Test("A download the restarted service finishes before the app reconnects is held through a kill -9, and the delegate gets it byte-exact")
    func heldThroughKill() async throws {
        let scenario = try Scenario()
        let root = scenario.deviceRoot
        let paths = DevicePaths(root: root)
        let manifest = try Self.manifestOfNoSessions()
        defer { manifest.stop() }
        // The first request gets half the file, then silence: the service is killed in the middle of
        // it. Every later one gets the whole file at once, so the restarted service finishes it first thing.
        let bytes = Self.bytes
        let files = try ScriptedHTTPServer { _, index in
            index == 0
                ? .response("200 OK", ["Content-Length: \(bytes.count)"], body: Array(bytes[..<(bytes.count / 2)]), stallAfterwards: true)
                : .response("200 OK", body: bytes)
        }
        defer { files.stop() }
        let fixture = AppBundleFixture(manifestURL: manifest.url("/manifest.json"))

        // 1. The app is installed, schedules a download and goes away with its service, killed mid-transfer.
        try await Self.withInstalledApp(fixture, scenario: scenario) { first, app in
            try await Self.scheduleHeld(from: app, of: fixture, at: files.url("/held.bin"))
            try await poll(until: { !files.requests.isEmpty }, "the transfer to start")
            kill(first.process.pid, SIGKILL)
            _ = try await first.process.waitForExit()
        }

        // 2. The next service finishes it before any delegate reconnects: held, and killed while it
        // holds it. The hold outlasts any wait for the trace on a busy machine, so the kill lands in
        // it; and the services stay until the test stops them, however late it reaches them.
        let holding = quickConfiguration.merging(["reconnectGrace": 600, "idleExitAfter": 600]) { $1 }
        try await withService(deviceRoot: root, configuration: holding, trustsClientClaims: true) { second in
            _ = try await poll("the restarted service to hold the file") {
                Self.trace(paths).last { $0.download == "held" && $0.detail == "held for a delegate reconnecting to the new service" }
            }
            kill(second.process.pid, SIGKILL)
            _ = try await second.process.waitForExit()
        }
        // 3. The service after that holds it again, and the app's delegate, reconnecting, gets it.
        try await Self.expectDelegateGetsHeldFile(fixture, scenario: scenario, configuration: holding)
    }

    @Test("A file held while the app holds exclusive control with no delegate survives a kill -9 of the service, and the delegate gets it byte-exact")
    func heldUnderControlThroughKill() async throws {
        let scenario = try Scenario()
        let paths = DevicePaths(root: scenario.deviceRoot)
        let manifest = try Self.manifestOfNoSessions()
        defer { manifest.stop() }
        let files = try ScriptedHTTPServer { _, _ in .response("200 OK", body: Self.bytes) }
        defer { files.stop() }
        let fixture = AppBundleFixture(manifestURL: manifest.url("/manifest.json"))

        // 1. The app takes exclusive control with no delegate, and a download finishes: held for it,
        // and the service is killed while it holds the file.
        try await Self.withInstalledApp(fixture, scenario: scenario) { first, app in
            #expect(try await app.ask(.downloads(.acquireExclusiveControl(deadline: nil))) == .exclusiveControlGranted)
            try await Self.scheduleHeld(from: app, of: fixture, at: files.url("/held.bin"))
            _ = try await poll("the service to hold the file while the app has control") {
                Self.trace(paths).last {
                    $0.download == "held" && ($0.detail ?? "").hasPrefix("held while the app holds exclusive control")
                }
            }
            kill(first.process.pid, SIGKILL)
            _ = try await first.process.waitForExit()
        }
        // 2. The next service holds it again, and the app's delegate, reconnecting, gets it.
        let holding = quickConfiguration.merging(["reconnectGrace": 600, "idleExitAfter": 600]) { $1 }
        try await Self.expectDelegateGetsHeldFile(fixture, scenario: scenario, configuration: holding)
    }

    /// Expects the held file of the download `held` to keep its second name with no service
    /// running, then starts a service that holds it again and has the app's delegate, reconnecting,
    /// take it: byte-exact, the hand-over folder emptied, never given to the extension.
    static func expectDelegateGetsHeldFile(
        _ fixture: AppBundleFixture, scenario: Scenario, configuration: [String: Double]
    ) async throws {
        let root = scenario.deviceRoot
        let paths = DevicePaths(root: root)
        let folder = try #require(paths.container(forAppGroup: fixture.appGroupIdentifier)).appending(path: "Library/Caches/com.apple.BackgroundAssets")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left.contains { $0.hasPrefix("BAFile-") && $0.hasSuffix(".tmp.held") }, "the held file keeps a second name: \(left)")
        try await withService(deviceRoot: root, configuration: configuration, trustsClientClaims: true) { _ in
            let app = try RawServiceClient(deviceRoot: root, bundleIdentifier: fixture.bundleIdentifier)
            defer { app.close() }
            _ = try await app.ask(.downloads(.setDelegate(isSet: true)))
            _ = try await app.event { if case let .finished(_, download, _) = $0 { download.identifier == "held" } else { false } }
            let delivery = try #require(app.events.lazy.compactMap { event -> (UInt64, String)? in
                if case let .finished(id, download, path) = event, download.identifier == "held" { (id, path) } else { nil }
            }.first)
            let placed = scenario.outputFolder.appendingPathComponent("held.bin")
            try FileManager.default.moveItem(at: URL(fileURLWithPath: delivery.1), to: placed)
            _ = try await app.ask(.downloads(.acknowledgeDelivery(deliveryID: delivery.0)))
            #expect(try Data(contentsOf: placed) == Data(Self.bytes), "the delegate got the file byte-exact")
            try await poll(until: { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).isEmpty },
                           "the hand-over folder to be empty once the delegate has the file")
        }
        let toExtension = Self.trace(paths).filter { $0.download == "held" && $0.to == "extension" }
        #expect(toExtension.isEmpty, "the file went to the extension: \(toExtension)")
    }

    /// Starts a service on the scenario's device, installs the fixture, and connects as its app.
    static func withInstalledApp(
        _ fixture: AppBundleFixture, scenario: Scenario, _ body: (ServiceProcess, RawServiceClient) async throws -> Void
    ) async throws {
        let root = scenario.deviceRoot
        try await withService(deviceRoot: root, configuration: quickConfiguration, trustsClientClaims: true) { service in
            try await install(fixture, root: root, paths: DevicePaths(root: root), folder: scenario.folder.appending("bundle"))
            let app = try RawServiceClient(deviceRoot: root, bundleIdentifier: fixture.bundleIdentifier)
            defer { app.close() }
            try await body(service, app)
        }
    }

    /// Schedules the download `held` of `bytes`, from `url`, as the app.
    static func scheduleHeld(from app: RawServiceClient, of fixture: AppBundleFixture, at url: URL) async throws {
        let download = DownloadDescriptor(
            identifier: "held", uniqueIdentifier: UUID().uuidString, url: url.absoluteString,
            fileSize: bytes.count, applicationGroupIdentifier: fixture.appGroupIdentifier)
        guard case .download = try await app.ask(.downloads(.schedule(download: download))) else {
            throw TestSupportError("The service refused to schedule the download.")
        }
    }

    /// A server of a manifest that lists no sessions, for the fixture's `BAManifestURL`.
    static func manifestOfNoSessions() throws -> ScriptedHTTPServer {
        let body = Array(#"{"version":1,"sessions":[]}"#.utf8)
        return try ScriptedHTTPServer { _, _ in .response("200 OK", ["Content-Type: application/json"], body: body) }
    }

    /// Installs the lifecycle test app with a manifest of no sessions, and waits until it is launchable.
    static func install(_ fixture: AppBundleFixture, root: URL, paths: DevicePaths, folder: URL) async throws {
        if let container = paths.container(forAppGroup: fixture.appGroupIdentifier) {
            // The lifecycle extension's behaviour: the defaults.
            let behaviour = container.appending(path: "Library/Preferences/lifecycle-test.json")
            try FileManager.default.createDirectory(at: behaviour.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: behaviour)
        }
        let plists = try fixture.write(in: folder)
        let tool = try RawServiceClient(deviceRoot: root, bundleIdentifier: "com.example.backgroundassets-debug", role: .tool)
        defer { tool.close() }
        let request = InstallRequest(
            appPlistPath: plists.app.path, extensionPlistPath: plists.extension.path, executablesDirectory: ProductsDirectory.url().path)
        guard case .app = try await tool.ask(.tool(.install(request))) else {
            throw TestSupportError("The service refused to install \(fixture.bundleIdentifier).")
        }
        try await poll(until: {
            guard case let .status(status) = try await tool.ask(.core(.fetchStatus)) else { return false }
            return status.apps.contains { $0.bundleIdentifier == fixture.bundleIdentifier && $0.state == .launchable }
        }, "the app to become launchable")
    }

    static func trace(_ paths: DevicePaths) -> [TraceEntry] {
        TraceEntry.entries(in: (try? Data(contentsOf: paths.traceFile)) ?? Data())
    }
}
