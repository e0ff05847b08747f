/*
Abstract:
Tests the service's asset packs in the test's process: installs by policy, requests, updates, removal, refusals.
*/

import AssetPackFormat
@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Asset packs in the service", .serialized, .timeLimit(.minutes(3)))
struct AssetPackServiceTests {
    static let app = "com.example.asset-pack-test"

    /// A device with an app whose packs the system manages, installed from `server`'s manifest and
    /// launchable; `extensionExecutable` is its downloader extension, and `whileInstalling` runs
    /// once the install is under way, before it is awaited.
    static func install(on device: InProcessService, server: AssetServerProcess,
                        extensionExecutable: String = "asset-pack-test-extension",
                        whileInstalling: () async throws -> Void = {}) async throws -> AppStatus {
        var fixture = AppBundleFixture(manifestURL: server.url("/manifest.json"))
        fixture.bundleIdentifier = app
        fixture.extensionBundleIdentifier = app + ".Extension"
        fixture.appGroupIdentifier = "group." + app
        fixture.appExecutable = "asset-pack-test-app"
        fixture.extensionExecutable = extensionExecutable
        fixture.hasManagedAssetPacks = true
        let plists = try fixture.write(in: device.root.url.appending(path: "bundle"))
        let tool = try await device.client("com.example.backgroundassets-debug", role: .tool)
        let request = InstallRequest(appPlistPath: plists.app.path, extensionPlistPath: plists.extension.path,
                                     executablesDirectory: ProductsDirectory.url().path)
        guard case .app = try await tool.ask(.tool(.install(request))) else { throw TestSupportError("the install was refused") }
        try await whileInstalling()
        return try await poll(timeout: .seconds(60), "the install to end") { () -> AppStatus? in
            guard case let .status(status) = try await tool.ask(.core(.fetchStatus)),
                  let app = status.apps.first(where: { $0.bundleIdentifier == app }), app.state == .launchable else { return nil }
            return app
        }
    }

    static func layout(_ device: InProcessService) -> AssetPackContainerLayout {
        AssetPackContainerLayout(appGroupContainer: device.paths.container(forAppGroup: "group." + app)!)
    }

    static func packEvents(_ events: [ServerEvent], _ packID: String) -> [AssetPackStatusEvent] {
        events.compactMap { if case let .assetPackStatus(event) = $0, event.packID == packID { event } else { nil } }
    }

    @Test("The essential pack is there when the install ends, the prefetch pack follows, and an on-demand pack downloads once for two callers, in order")
    func installAndRequest() async throws {
        let catalog = try PackCatalog()
        try catalog.add("Intro", policy: PackCatalog.essential, files: ["Intro/welcome.txt": "Welcome"])
        try catalog.add("Transcripts", policy: PackCatalog.prefetch, files: ["Transcripts/a.txt": String(repeating: "t", count: 5000)])
        let slides = String(repeating: "slide ", count: 40_000)
        try catalog.add("Slides", policy: PackCatalog.onDemand, files: ["Slides/a.pdf": slides])
        try catalog.publish()
        try await withAssetServer(catalogURL: catalog.folder) { server in
            let device = try await InProcessService()
            let status = try await Self.install(on: device, server: server)
            let layout = Self.layout(device)
            #expect(layout.installedVersion(of: "Intro") == 1, "the essential pack is installed before the app is launchable")
            #expect(status.installSummary?.contains("1 of 1 essential asset pack(s)") == true,
                    "\(status.installSummary ?? "")")
            try await poll(until: { layout.installedVersion(of: "Transcripts") == 1 }, "the prefetch pack")
            #expect(layout.installedVersion(of: "Slides") == nil, "an on-demand pack waits for the app")

            let first = try await device.client(Self.app)
            let second = try await device.client(Self.app)
            _ = try await first.ask(.assetPacks(.watchAssetPacks))
            let asked = try first.post(.assetPacks(.requestAssetPack(packID: "Slides", version: 1)))
            let joined = try await second.ask(.assetPacks(.requestAssetPack(packID: "Slides", version: 1)))
            let outcomes = [try await first.answer(to: asked), joined]
            #expect(outcomes.contains(.assetPackRequest(outcome: .scheduled)), "\(outcomes)")
            #expect(outcomes.contains(.assetPackRequest(outcome: .joined)) || outcomes.contains(.assetPackRequest(outcome: .alreadyInstalled)),
                    "\(outcomes)")
            let events = Self.packEvents(try await first.event {
                if case let .assetPackStatus(event) = $0 { event.kind == .finished && event.packID == "Slides" } else { false }
            }, "Slides")
            let kinds = events.map(\.kind)
            #expect(kinds.first == .began && kinds.last == .finished && !kinds.contains(.failed), "\(kinds)")
            let progress = events.compactMap(\.completedBytes)
            #expect(progress == progress.sorted(), "progress never goes back: \(progress)")
            let file = layout.currentLink("Slides").appending(path: "Slides/a.pdf")
            #expect(try String(contentsOf: file, encoding: .utf8) == slides)
            guard case let .status(after) = try await first.ask(.core(.fetchStatus)) else { return }
            #expect(after.downloads.filter { $0.download.identifier == "asset-pack.Slides.v1" }.count == 1, "one download for both callers")
            #expect(after.apps.first?.assetPacks?.map(\.packID) == ["Intro", "Slides", "Transcripts"])
            #expect(try await second.ask(.assetPacks(.requestAssetPack(packID: "Slides", version: 1))) == .assetPackRequest(outcome: .alreadyInstalled))

            #expect(try await first.ask(.assetPacks(.removeAssetPack(packID: "Slides"))) == .assetPackChanges(AssetPackChanges(removed: ["Slides"])))
            #expect(layout.installedVersion(of: "Slides") == nil)
            #expect(!FileManager.default.fileExists(atPath: layout.packDirectory("Slides").path), "its files are gone")
            _ = try await first.event { if case let .assetPackStatus(event) = $0 { event.kind == .removed } else { false } }
            await device.stop()
        }
    }

    @Test("checkForUpdates installs a pack's new version beside the old one, and a tampered archive is refused with nothing installed")
    func updateAndTamper() async throws {
        let catalog = try PackCatalog()
        try catalog.add("Slides", policy: PackCatalog.onDemand, files: ["Slides/a.pdf": "version one"])
        try catalog.add("Notes", policy: PackCatalog.onDemand, files: ["Notes/n.txt": String(repeating: "n", count: 4096)])
        try catalog.publish()
        try await withAssetServer(catalogURL: catalog.folder) { server in
            let device = try await InProcessService()
            _ = try await Self.install(on: device, server: server)
            let layout = Self.layout(device)
            let client = try await device.client(Self.app)
            _ = try await client.ask(.assetPacks(.watchAssetPacks))
            _ = try await client.ask(.assetPacks(.requestAssetPack(packID: "Slides", version: 1)))
            _ = try await client.event { if case let .assetPackStatus(event) = $0 { event.kind == .finished } else { false } }

            try catalog.add("Slides", version: 2, policy: PackCatalog.onDemand, files: ["Slides/a.pdf": "version two"])
            try catalog.publish()
            #expect(try await client.ask(.assetPacks(.checkAssetPackUpdates)) == .assetPackChanges(AssetPackChanges(updating: ["Slides"])))
            _ = try await client.event { if case let .assetPackStatus(event) = $0 { event.kind == .finished && event.version == 2 } else { false } }
            #expect(layout.installedVersion(of: "Slides") == 2)
            #expect(try String(contentsOf: layout.currentLink("Slides").appending(path: "Slides/a.pdf"), encoding: .utf8) == "version two")

            // The server's copy changes after the manifest was written: the system refuses it.
            let archive = catalog.folder.appending(path: "Notes.aar")
            var bytes = try Data(contentsOf: archive)
            bytes[bytes.count - 100] ^= 0x5A
            try bytes.write(to: archive)
            _ = try await client.ask(.assetPacks(.requestAssetPack(packID: "Notes", version: 1)))
            let events = Self.packEvents(try await client.event {
                if case let .assetPackStatus(event) = $0 { event.packID == "Notes" && event.kind == .failed } else { false }
            }, "Notes")
            let message = events.last?.failure?.message ?? ""
            #expect(message.contains("Notes") && message.contains("refused"), "\(message)")
            #expect(layout.installedVersion(of: "Notes") == nil)
            #expect(!FileManager.default.fileExists(atPath: layout.packDirectory("Notes").path))
            await device.stop()
        }
    }

    @Test("An app whose extension adopts only BADownloaderExtension is refused, naming the extension's type")
    func notManagedExtensionIsRefused() async throws {
        let catalog = try PackCatalog()
        try catalog.add("Intro", policy: PackCatalog.essential, files: ["Intro/welcome.txt": "Welcome"])
        try catalog.publish()
        try await withAssetServer(catalogURL: catalog.folder) { server in
            let device = try await InProcessService()
            let status = try await Self.install(on: device, server: server, extensionExecutable: "lifecycle-test-extension")
            #expect(status.installSummary?.contains("LifecycleTestExtension adopts BADownloaderExtension") == true,
                    "\(status.installSummary ?? "")")
            #expect(Self.layout(device).installedVersion(of: "Intro") == nil)
            let client = try await device.client(Self.app)
            guard case let .failure(failure) = try await client.ask(.assetPacks(.fetchAssetPackManifest)) else {
                Issue.record("the app's request was not refused"); return
            }
            #expect(failure.code == BAError.Code.callerConnectionNotAccepted.rawValue)
            #expect(failure.message.contains("ManagedDownloaderExtension"), "\(failure.message)")
            guard case let .failure(hostile) = try await client.ask(.assetPacks(.requestAssetPack(packID: "../etc", version: 1))) else {
                Issue.record("a path as a pack identifier was accepted"); return
            }
            #expect(!hostile.message.isEmpty)
            await device.stop()
        }
    }
}
