/*
Abstract:
Tests that an app starting while finished files go to its extension gets every download it can promote, and no other.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Finished files on their way to the extension when the app starts", .serialized, .timeLimit(.minutes(3)))
struct ExtensionHandOverTests {
    static let finishedCall = "backgroundDownload(_:finishedWithFileURL:)"

    @Test("A delegate set before a finished file went to the extension receives it; the extension never does")
    func unsentFileGoesToTheDelegate() async throws {
        try await Self.withExtensionHoldingOneFile { scene in
            let (app, held, queued) = (scene.app, scene.held, scene.queued)
            try await Self.expect(app, toList: [])
            _ = try await app.ask(.downloads(.setDelegate(isSet: true)))

            let delivered = try await app.deliveries()
            #expect(delivered.map(\.download.uniqueIdentifier) == [queued.uniqueIdentifier], "only the file not sent yet")
            guard let delivery = delivered.first else { return }
            #expect(FileManager.default.fileExists(atPath: delivery.path), "the file is there until the delegate returns")
            // Until the delegate returns, the app lists it (finished) and promoting it starts nothing.
            try await Self.expect(app, toList: [queued.uniqueIdentifier])
            guard case let .download(promoted) = try await app.ask(.downloads(.startForeground(download: delivery.download))) else {
                Issue.record("promoting the download handed to the delegate failed"); return
            }
            #expect(promoted.state == .finished)
            _ = try await app.ask(.downloads(.acknowledgeDelivery(deliveryID: delivery.id)))
            try await poll(
                until: { !FileManager.default.fileExists(atPath: delivery.path) }, "the delivered file to be deleted")

            // The extension still owes the file it holds, and no other: the delegate's is not sent to it later.
            let owed = await scene.device.service.rowsGivenToExtension(of: scene.bundleIdentifier)
            #expect(owed.count == 1, "the extension owes \(owed)")
            let sent = scene.device.trace.filter { $0.event == Self.finishedCall && $0.to == "extension" }
            #expect(sent.map(\.download) == [held.identifier], "the extension received \(sent)")
        }
    }

    @Test("A finished file the extension holds is not listed to the app, and promoting it fails with downloadNotScheduled")
    func sentFileStaysTheExtensions() async throws {
        try await Self.withExtensionHoldingOneFile { scene in
            let (app, held, queued) = (scene.app, scene.held, scene.queued)
            _ = try await app.ask(.downloads(.setDelegate(isSet: true)))
            _ = try await app.deliveries()
            // Listed: the file on its way to the delegate. Not listed: the one the extension holds.
            try await Self.expect(app, toList: [queued.uniqueIdentifier], without: held)

            guard case let .failure(failure) = try await app.ask(.downloads(.startForeground(download: held))) else {
                Issue.record("promoting the extension's download did not fail"); return
            }
            #expect(failure.code == BAError.Code.downloadNotScheduled.rawValue, "\(failure)")
            #expect(failure.message.contains("extension") && failure.message.contains(held.identifier), "\(failure)")
            #expect(!app.handedOver.contains { $0.download.uniqueIdentifier == held.uniqueIdentifier }, "the delegate received it")
        }
    }

    @Test("A file the extension held when it was killed is kept for the app and reaches its next delegate, never deleted")
    func killedExtensionLeavesTheFileToTheApp() async throws {
        try await Self.withExtensionHoldingOneFile { scene in
            let (app, held) = (scene.app, scene.held)
            let launched = try #require(scene.device.trace.last { $0.event == "extensionLaunched" })
            let pid = try #require(launched.detail.flatMap { Int32($0.replacingOccurrences(of: "pid ", with: "")) })
            #expect(kill(pid, SIGKILL) == 0)
            try await scene.device.waitForTrace("the held file kept for the app") {
                $0.download == held.identifier && $0.detail?.contains("kept for the app's delegate") == true
            }

            _ = try await app.ask(.downloads(.setDelegate(isSet: true)))
            _ = try await app.event {
                if case let .finished(_, download, _) = $0 { download.uniqueIdentifier == held.uniqueIdentifier } else { false }
            }
            let delivery = try #require(app.handedOver.first { $0.download.uniqueIdentifier == held.uniqueIdentifier })
            #expect(try Data(contentsOf: URL(fileURLWithPath: delivery.path)) == Data(Setup.bytes), "the file is whole")
            _ = try await app.ask(.downloads(.acknowledgeDelivery(deliveryID: delivery.id)))
        }
    }

    @Test("A file whose delegate went away before returning goes to a delegate set since, not to the extension")
    func orphanedFileGoesToANewDelegate() async throws {
        try await Self.withInstalledApp { setup in
            let bundle = setup.installed.bundleIdentifier
            let first = try await setup.device.client(bundle)
            _ = try await first.ask(.downloads(.setDelegate(isSet: true)))
            let download = try await setup.finish("orphaned", from: first, "the file sent to the first delegate") {
                $0.event == "finishedWithFileURL" && $0.to == "app"
            }
            // The first app's process receives the file, then exits before its callback returns.
            _ = try await first.deliveries()
            let second = try await setup.device.client(bundle)
            _ = try await second.ask(.downloads(.setDelegate(isSet: true)))
            first.close()

            let delivered = try await second.deliveries()
            #expect(delivered.map(\.download.uniqueIdentifier) == [download.uniqueIdentifier])
            if let delivery = delivered.first { _ = try await second.ask(.downloads(.acknowledgeDelivery(deliveryID: delivery.id))) }
            #expect(!setup.device.trace.contains { $0.event == Self.finishedCall }, "the extension was called for it")
        }
    }

    /// An app started while its extension holds one finished file and another waits for it.
    struct Scene {
        let device: InProcessService
        let bundleIdentifier: String
        /// The app's connection, which has not set a delegate yet.
        let app: RawServiceClient
        /// The download whose file the extension is receiving.
        let held: DownloadDescriptor
        /// The download whose file is queued for the extension behind it.
        let queued: DownloadDescriptor
    }

    /// Installs the lifecycle test app, whose extension sleeps in `finishedWithFileURL`, and, with no
    /// delegate connected, has two downloads finish: the first is sent to the extension, which holds
    /// it, and the second waits for the extension behind it.
    static func withExtensionHoldingOneFile(_ body: (Scene) async throws -> Void) async throws {
        try await withInstalledApp(behaviour: ["finishedSleepSeconds": 3600]) { setup in
            let app = try await setup.device.client(setup.installed.bundleIdentifier)
            let held = try await setup.finish("held", from: app, "the first file sent to the extension") {
                $0.event == finishedCall && $0.to == "extension"
            }
            let queued = try await setup.finish("queued", from: app, "the second file routed to the extension") {
                $0.event == "finishedWithFileURL" && $0.detail?.contains("launching the extension") == true
            }
            try await body(Scene(device: setup.device, bundleIdentifier: setup.installed.bundleIdentifier, app: app, held: held, queued: queued))
        }
    }

    /// The lifecycle test app installed on an in-process service, and a server of its downloads.
    struct Setup {
        static let bytes = Array(repeating: UInt8(ascii: "v"), count: 4096)
        let device: InProcessService
        let installed: InProcessService.TestApp
        let files: ScriptedHTTPServer

        /// Schedules a background download from `client`, and waits until the trace shows `traced` of it.
        func finish(
            _ identifier: String, from client: RawServiceClient, _ description: String, when traced: @escaping (TraceEntry) -> Bool
        ) async throws -> DownloadDescriptor {
            let download = DownloadDescriptor(
                identifier: identifier, uniqueIdentifier: UUID().uuidString, url: files.url("/\(identifier).mp4").absoluteString,
                fileSize: Self.bytes.count, applicationGroupIdentifier: installed.fixture.appGroupIdentifier)
            guard case let .download(scheduled) = try await client.ask(.downloads(.schedule(download: download))) else {
                throw TestSupportError("The service refused to schedule \(identifier).")
            }
            try await device.waitForTrace(description) { $0.download == identifier && traced($0) }
            return scheduled
        }
    }

    /// Installs the lifecycle test app with its extension behaving as `behaviour` says, and moves the
    /// clock past the grace in which a just-started service keeps finished files for reconnecting delegates.
    static func withInstalledApp(behaviour: [String: any Sendable] = [:], _ body: (Setup) async throws -> Void) async throws {
        let files = try ScriptedHTTPServer { _, _ in .response("200 OK", body: Setup.bytes) }
        defer { files.stop() }
        try await InProcessService.with { device in
            let installed = try await device.installTestApp(behaviour: behaviour)
            defer { installed.manifestServer.stop() }
            _ = try await device.waitForAppStatus(installed, "the install's end") { $0.state == .launchable ? $0 : nil }
            device.clock.advance(by: .seconds(BackgroundAssetsService.reconnectGrace + 1))
            try await body(Setup(device: device, installed: installed, files: files))
        }
    }

    /// Expects the app's listing to hold exactly these finished downloads, and not `absent`.
    static func expect(
        _ app: RawServiceClient, toList finished: [String], without absent: DownloadDescriptor? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        guard case let .downloads(listed) = try await app.ask(.downloads(.fetchCurrentDownloads)) else {
            Issue.record("the service did not list the app's downloads", sourceLocation: sourceLocation); return
        }
        #expect(listed.filter { $0.state == .finished }.map(\.uniqueIdentifier) == finished, "listed \(listed)", sourceLocation: sourceLocation)
        if let absent { #expect(!listed.contains { $0.uniqueIdentifier == absent.uniqueIdentifier }, sourceLocation: sourceLocation) }
    }
}

extension RawServiceClient {
    /// A finished file handed to this client's delegate.
    struct Delivery {
        let id: UInt64
        let download: DownloadDescriptor
        let path: String
    }

    /// The finished files handed to this client so far, as far as it has read.
    var handedOver: [Delivery] {
        events.compactMap {
            if case let .finished(id, download, path) = $0 { Delivery(id: id, download: download, path: path) } else { nil }
        }
    }

    /// Waits until a finished file has been handed to this client, and returns every one handed so far.
    func deliveries() async throws -> [Delivery] {
        _ = try await event { if case .finished = $0 { true } else { false } }
        return handedOver
    }
}
