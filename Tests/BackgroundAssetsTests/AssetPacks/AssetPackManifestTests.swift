/*
Abstract:
Tests of AssetPackManifest and AssetPack downloads: which packs a content request gets, and as what kind of download.
*/

import AssetPackFormat
@testable import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Asset-pack manifests and downloads")
struct AssetPackManifestTests {
    static let json = """
        { "assetPacks": [
            { "id": "Essentials", "version": 2, "url": "Essentials", "downloadSize": 4096,
              "downloadPolicy": { "essential": { "installationEventTypes": ["firstInstallation"] } },
              "userInfo": { "title": "Essentials" } },
            { "id": "Transcripts", "version": 1, "url": "https://cdn.example.com/packs/Transcripts", "downloadSize": 8192,
              "downloadPolicy": { "prefetch": { "installationEventTypes": ["firstInstallation", "subsequentUpdate"] } } },
            { "id": "Slides-2023", "version": 5, "url": "Slides-2023", "downloadSize": 1000000,
              "downloadPolicy": { "onDemand": {} } }
        ] }
        """

    private func manifest() throws -> AssetPackManifest {
        AssetPackManifest(
            manifest: try AssetPackDownloadManifest(parsing: Data(Self.json.utf8), source: "manifest.json"),
            manifestURL: URL(string: "https://cdn.example.com/packs/manifest.json"), appGroupID: "group.com.example.packs")
    }

    /// A download's identifier, whether it is essential, and its URL.
    private func describe(_ downloads: Set<BADownload>) -> [String] {
        downloads.map { download in
            let url = (download as? BAURLDownload)?.request.url?.absoluteString ?? "?"
            return "\(download.identifier) \(download.isEssential ? "essential" : "background") \(url)"
        }.sorted()
    }

    @Test("A manifest's packs carry their identifier, version, size and custom information")
    func packs() throws {
        let manifest = try manifest()
        #expect(manifest.assetPacks.count == 3)
        let essentials = try #require(manifest.assetPack(withID: "Essentials"))
        #expect(essentials.version == 2)
        #expect(essentials.downloadSize == 4096)
        #expect(essentials.userInfo.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: String] } == ["title": "Essentials"])
        #expect(manifest.assetPack(withID: "Nope") == nil)
        #expect(throws: (any Error).self) { try AssetPackManifest(from: Data("{}".utf8), appGroupID: "group.x") }
    }

    @Test("An install gets its essential packs as essential downloads and its prefetch packs in the background")
    func install() throws {
        #expect(describe(try manifest().allDownloads(for: .install)) == [
            "asset-pack.Essentials.v2 essential https://cdn.example.com/packs/Essentials",
            "asset-pack.Transcripts.v1 background https://cdn.example.com/packs/Transcripts",
        ])
    }

    @Test("An update, a periodic check and a manual request get the packs that apply, never an on-demand pack by itself")
    func otherRequests() throws {
        let manifest = try manifest()
        #expect(describe(manifest.allDownloads(for: .update)) == [
            "asset-pack.Transcripts.v1 background https://cdn.example.com/packs/Transcripts",
        ])
        #expect(describe(manifest.allDownloads(for: .periodic)).count == 2)
        #expect(describe(manifest.allDownloads(for: .periodic)).allSatisfy { $0.contains("background") })
        #expect(describe(manifest.allDownloads(for: nil)).count == 3)
    }

    @Test("A managed extension's default returns the applicable packs not yet installed that shouldDownload accepts")
    func managedExtensionDefault() throws {
        struct Handler: ManagedDownloaderExtension {
            func shouldDownload(_ assetPack: AssetPack) -> Bool { assetPack.id != "Transcripts" }
        }
        struct DefaultHandler: ManagedDownloaderExtension {}
        let manifest = try manifest()
        #expect(describe(Handler().packDownloads(for: .install, manifest: manifest, installed: [:])) == [
            "asset-pack.Essentials.v2 essential https://cdn.example.com/packs/Essentials",
        ])
        #expect(describe(DefaultHandler().packDownloads(for: .install, manifest: manifest, installed: [:])).count == 2)
        #expect(describe(DefaultHandler().packDownloads(for: .install, manifest: manifest, installed: ["Essentials": 2])) == [
            "asset-pack.Transcripts.v1 background https://cdn.example.com/packs/Transcripts",
        ])
        #expect(DefaultHandler().packDownloads(for: .periodic, manifest: manifest, installed: [:]).isEmpty)
        #expect(Handler.adoptsManagedProtocol)
        #expect(!RecordingExtension.adoptsManagedProtocol)
    }
}
