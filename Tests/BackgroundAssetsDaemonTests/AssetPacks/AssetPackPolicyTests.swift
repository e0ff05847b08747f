/*
Abstract:
Unit tests of the asset-pack policy: what each occasion downloads, what it removes, and what storage pressure frees.
*/

import AssetPackFormat
import BackgroundAssetsDaemon
import Foundation
import Testing

@Suite("Asset-pack policy")
struct AssetPackPolicyTests {
    static func entry(_ id: String, _ version: Int = 1, _ policy: AssetPackDownloadPolicy, size: Int64 = 100)
        -> AssetPackDownloadManifest.Entry {
        .init(id: id, version: version, url: id, downloadSize: size, downloadPolicy: policy, installSize: size)
    }

    static let first = AssetPackDownloadPolicy.essential(installationEventTypes: [.firstInstallation])
    static let always = AssetPackDownloadPolicy.essential(installationEventTypes: [.firstInstallation, .subsequentUpdate])
    static let prefetch = AssetPackDownloadPolicy.prefetch(installationEventTypes: [.firstInstallation])

    private let manifest = AssetPackDownloadManifest(assetPacks: [
        entry("Tutorial", 1, first), entry("Resources", 2, always), entry("Transcripts", 1, prefetch),
        entry("Slides", 1, .onDemand),
    ])

    @Test("A first install downloads essential packs in its essential phase and prefetch packs after, never on-demand ones")
    func firstInstall() {
        let plan = AssetPackPolicy.plan(for: .installation(.firstInstallation), manifest: manifest, installed: [:])
        #expect(plan.essential.map(\.id) == ["Tutorial", "Resources"])
        #expect(plan.background.map(\.id) == ["Transcripts"])
        #expect(plan.removals.isEmpty)
    }

    @Test("The extension's shouldDownload(_:) leaves packs out")
    func extensionFilters() {
        let plan = AssetPackPolicy.plan(for: .installation(.firstInstallation), manifest: manifest, installed: [:]) {
            $0.id != "Tutorial"
        }
        #expect(plan.essential.map(\.id) == ["Resources"])
    }

    @Test("An app update downloads what its event names, updates installed packs, and removes obsolete ones")
    func appUpdate() {
        let installed = ["Tutorial": 1, "Resources": 1, "Slides": 0, "Retired": 3]
        let newer = AssetPackDownloadManifest(assetPacks: manifest.assetPacks.map { entry in
            var entry = entry
            if entry.id == "Slides" { entry.version = 1 }
            return entry
        })
        let plan = AssetPackPolicy.plan(for: .installation(.subsequentUpdate), manifest: newer, installed: installed)
        #expect(plan.essential.map(\.id) == ["Resources"])
        #expect(plan.background.map(\.id) == ["Slides"])
        #expect(plan.removals == ["Retired"])
        #expect(plan.updates(installed: installed) == ["Resources", "Slides"])
    }

    @Test("A periodic check or checkForUpdates() only updates installed packs and removes obsolete ones")
    func updateCheck() {
        let installed = ["Tutorial": 1, "Slides": 0, "Retired": 1]
        let newer = AssetPackDownloadManifest(assetPacks: [Self.entry("Tutorial", 1, Self.first), Self.entry("Slides", 2, .onDemand),
                                                           Self.entry("Transcripts", 1, Self.prefetch)])
        let plan = AssetPackPolicy.plan(for: .updateCheck, manifest: newer, installed: installed)
        #expect(plan.essential.isEmpty)
        #expect(plan.background.map { "\($0.id) v\($0.version)" } == ["Slides v2"])
        #expect(plan.removals == ["Retired"])
    }

    private func installed(_ id: String, _ policy: AssetPackDownloadPolicy, size: Int64, usedAt seconds: Double,
                           app: String = "com.example.app") -> InstalledAssetPack {
        InstalledAssetPack(bundleIdentifier: app, packID: id, version: 1, downloadPolicy: policy, installSize: size,
                           sizeOnDisk: size, installed: Date(timeIntervalSince1970: 0), lastUsed: Date(timeIntervalSince1970: seconds))
    }

    @Test("Storage pressure removes on-demand packs first, least recently used first, then prefetch packs, never essential ones")
    func removalOrder() {
        let packs = [
            installed("Essential", Self.first, size: 500, usedAt: 1), installed("Prefetch", Self.prefetch, size: 300, usedAt: 2),
            installed("OldSlides", .onDemand, size: 200, usedAt: 3), installed("NewSlides", .onDemand, size: 200, usedAt: 9),
        ]
        #expect(AssetPackPolicy.removalOrder(packs).map(\.packID) == ["OldSlides", "NewSlides", "Prefetch"])
        #expect(AssetPackPolicy.packsToFree(250, installed: packs).map(\.packID) == ["OldSlides", "NewSlides"])
        #expect(AssetPackPolicy.packsToFree(10_000, installed: packs).map(\.packID) == ["OldSlides", "NewSlides", "Prefetch"])
    }

    @Test("A pack is admitted when it fits, after removing packs when it does not, or refused with the shortfall")
    func admission() {
        let packs = [installed("OldSlides", .onDemand, size: 300, usedAt: 1), installed("Essential", Self.first, size: 900, usedAt: 0),
                     installed("Update", .onDemand, size: 400, usedAt: 0),
                     installed("Update", .onDemand, size: 50, usedAt: 5, app: "com.example.other")]
        let update = Self.entry("Update", 2, .onDemand, size: 100)
        #expect(AssetPackPolicy.admission(for: update, app: "com.example.app", freeBytes: 1_000, reserve: 100, installed: packs) == .fits)
        #expect(AssetPackPolicy.admission(for: update, app: "com.example.app", freeBytes: 200, reserve: 100, installed: packs)
            == .fitsAfterRemoving([packs[0]]))
        #expect(AssetPackPolicy.admission(for: update, app: "com.example.app", freeBytes: 0, reserve: 100, installed: packs)
            == .fitsAfterRemoving([packs[0]]))
        // Neither the essential pack nor the version being updated is removed to make room.
        #expect(AssetPackPolicy.admission(for: update, app: "com.example.app", freeBytes: 0, reserve: 200, installed: packs)
            == .doesNotFit(shortfall: 50))
    }

    @Test("A manifest that declares the largest sizes is refused for its shortfall rather than overflowing the sum")
    func admissionOfHugeSizes() {
        let huge = Self.entry("Huge", 1, .onDemand, size: .max)
        #expect(AssetPackPolicy.admission(for: huge, app: "com.example.app", freeBytes: 1_000, reserve: 100, installed: [])
            == .doesNotFit(shortfall: .max - 1_000))
        #expect(AssetPackPolicy.admission(for: huge, app: "com.example.app", freeBytes: .max, reserve: .max, installed: [])
            == .fits)
    }
}
