/*
Abstract:
Tests that the asset-pack manager refuses, with the reason, an app not set up for managed packs.
*/

import AssetPackFormat
@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
@testable import ServiceClient
import Testing

@Suite("Using the asset-pack manager without managed packs")
struct AssetPackManagerRefusalTests {
    /// A pack to ask about, made without the manager, which refuses.
    private func pack(_ manager: AssetPackManager) async -> AssetPack {
        AssetPack(entry: .init(id: "Tutorial", version: 1, url: "Tutorial", downloadSize: 1, downloadPolicy: .onDemand),
                  manifestURL: nil, appGroupID: InMemoryAssetPackSystem.group)
    }

    /// Calls every entry point and returns the errors they threw, by name.
    private func errors(of manager: AssetPackManager) async -> [String: any Error] {
        var errors: [String: any Error] = [:]
        func record(_ name: String, _ body: () async throws -> Void) async {
            do { try await body() } catch { errors[name] = error }
        }
        await record("manifest") { _ = try await manager.manifest }
        await record("assetPack") { _ = try await manager.assetPack(withID: "Tutorial") }
        await record("localStatus") { _ = try await manager.status(relativeTo: await pack(manager)) }
        await record("checkForUpdates") { try await manager.checkForUpdates() }
        await record("remove") { try await manager.remove(assetPackWithID: "Tutorial") }
        await record("contents") { _ = try manager.contents(at: "a.txt") }
        await record("url") { _ = try manager.url(for: "a.txt") }
        await record("descriptor") { _ = try manager.descriptor(for: "a.txt") }
        return errors
    }

    @Test("An extension that adopts only BADownloaderExtension makes every call fail, naming the protocol to adopt")
    func extensionNotManaged() async throws {
        let system = try InMemoryAssetPackSystem(adoption: .notAdopted(typeName: "BackgroundDownloadHandler"))
        system.publish([("Tutorial", 1, .onDemand)])
        let manager = system.manager()
        let errors = await errors(of: manager)
        #expect(errors.count == 8)
        for (name, error) in errors {
            let refusal = try #require(error as? BAError, "\(name) threw \(error)")
            #expect(refusal.code == .callerConnectionNotAccepted)
            #expect(refusal.message.contains("BackgroundDownloadHandler adopts BADownloaderExtension rather than ManagedDownloaderExtension"),
                    "\(name): \(refusal.message)")
        }
        #expect(!manager.assetPackIsAvailableLocally(withID: "Tutorial"))
        #expect(await manager.localStatus(ofAssetPackWithID: "Tutorial") == [])
        #expect(system.requests.isEmpty)
    }

    @Test("Missing Info.plist keys are refused, naming the key; Apple hosting is not refused by the framework")
    func infoPlistKeys() async throws {
        let cases: [(ManagedAssetPackSettings, String)] = [
            (ManagedAssetPackSettings(hasManagedAssetPacks: false, appGroupID: InMemoryAssetPackSystem.group), "BAHasManagedAssetPacks"),
            (ManagedAssetPackSettings(hasManagedAssetPacks: true, appGroupID: nil), "has no BAAppGroupID"),
        ]
        // Where an Apple-hosted app's packs come from is the system's to check (its Apple hosting server).
        #expect(ManagedAssetPackSettings(hasManagedAssetPacks: true, appGroupID: InMemoryAssetPackSystem.group,
                                         usesAppleHosting: true).managementProblem == nil)
        for (settings, reason) in cases {
            let manager = try InMemoryAssetPackSystem(settings: settings).manager()
            await #expect {
                try await manager.checkForUpdates()
            } throws: { error in
                (error as? BAError)?.message.contains(reason) == true
            }
        }
    }

    @Test("An app whose extension is not known yet may use the manager; the check is remembered once it passes")
    func unknownExtension() async throws {
        let system = try InMemoryAssetPackSystem(adoption: .unknown)
        system.publish([("Tutorial", 1, .onDemand)])
        let manager = system.manager()
        _ = try await manager.assetPack(withID: "Tutorial")
        _ = try await manager.allAssetPacks
        #expect(system.environmentReads == 1)
    }

    @Test("The Info.plist keys are read with their types checked")
    func settingsFromInfoDictionary() throws {
        let settings = try ManagedAssetPackSettings(
            infoDictionary: ["BAHasManagedAssetPacks": true, "BAAppGroupID": "group.com.example.app"], source: "Info.plist")
        #expect(settings == ManagedAssetPackSettings(hasManagedAssetPacks: true, appGroupID: "group.com.example.app"))
        #expect(settings.managementProblem == nil)
        #expect(throws: AssetPackFormatError.self) {
            try ManagedAssetPackSettings(infoDictionary: ["BAHasManagedAssetPacks": "YES"], source: "Info.plist")
        }
        #expect(throws: AssetPackFormatError.self) {
            try ManagedAssetPackSettings(infoDictionary: ["BAAppGroupID": "../escape"], source: "Info.plist")
        }
    }
    @Test("An app started without an installed bundle is told to install, not to add keys to its Info.plist")
    func notInstalled() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "not-installed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let identity = ProcessIdentity(bundleIdentifier: "wwdc-slides", role: .app)
        let bare = try #require(Bundle(url: folder))
        guard case let .failure(refusal) = SystemAssetPackService.settings(of: bare, identity: identity) else {
            Issue.record("a bundle without an Info.plist was accepted")
            return
        }
        #expect(refusal.message.contains("\"wwdc-slides\" is not installed"), "\(refusal.message)")
        #expect(refusal.message.contains("backgroundassets-debug install"), "\(refusal.message)")

        let plist: [String: Any] = ["CFBundleIdentifier": "com.example.app", "BAHasManagedAssetPacks": true,
                                    "BAAppGroupID": "group.com.example.app"]
        // Another folder: Foundation keeps one Bundle per path, with the Info.plist it read first.
        let installedFolder = folder.appending(path: "WWDC Slides.app")
        try FileManager.default.createDirectory(at: installedFolder, withIntermediateDirectories: true)
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: installedFolder.appending(path: "Info.plist"))
        let installed = try #require(Bundle(url: installedFolder))
        let settings = try SystemAssetPackService.settings(of: installed, identity: identity).get()
        #expect(settings.hasManagedAssetPacks && settings.appGroupID == "group.com.example.app")
    }
}
