/*
Abstract:
Tests of the asset-pack store's records of downloads on their way and of extension adoption, across a reopening.
*/

import AssetPackFormat
@testable import BackgroundAssetsDaemon
import Foundation
import Testing
import TestSupport

@Suite("Asset-pack store: downloads on their way")
struct AssetPackStoreDownloadTests {
    static let slides = AssetPackDownloadManifest.Entry(
        id: "Slides", version: 3, url: "Slides.aar", downloadSize: 4096, downloadPolicy: .onDemand,
        sha256: String(repeating: "ab", count: 32), installSize: 4000, userInfo: .object(["year": .integer(2023)]))

    @Test("A pack version on its way keeps its manifest entry and queue row across a reopening, and goes with its app")
    func pendingSurvives() async throws {
        let folder = try TemporaryDirectory(prefix: "pack-store")
        let url = folder.appending("asset-packs.sqlite")
        let download = PendingAssetPackDownload(
            app: "com.example.app", entry: Self.slides, archiveURL: URL(string: "http://127.0.0.1:9/Slides.aar")!, isEssential: true, rowID: 7)
        var ahead = PendingAssetPackDownload(
            app: "com.example.ahead", entry: Self.slides, archiveURL: URL(string: "http://127.0.0.1:9/Slides.aar")!,
            isEssential: true, rowID: 9, awaitsAnswer: true)
        do {
            let store = try AssetPackStore(url: url)
            try await store.savePending([download, ahead])
            try await store.saveAdoption(app: "com.example.app", isManaged: false, typeName: "BackgroundDownloadHandler")
            try await store.saveAdoption(app: "com.example.other", isManaged: true, typeName: nil)
        }
        let reopened = try AssetPackStore(url: url)
        // Whether it still awaits the extension's answer decides whether a restarted service withdraws it.
        // By app, then pack.
        #expect(try await reopened.pendingDownloads() == [ahead, download])
        #expect(try await reopened.unmanagedExtensions() == ["com.example.app": "BackgroundDownloadHandler"])
        ahead.awaitsAnswer = false
        try await reopened.savePending([ahead])
        #expect(try await reopened.pendingDownloads() == [ahead, download])
        try await reopened.removeApp("com.example.app")
        try await reopened.removeApp("com.example.ahead")
        #expect(try await reopened.unmanagedExtensions().isEmpty)
        #expect(try await reopened.pendingDownloads().isEmpty)
        #expect(try await reopened.unmanagedExtensions().isEmpty)
    }

    @Test("A version that arrived is recorded installed and no longer on its way, in one change that leaves the other downloads alone")
    func arrivalIsOneChange() async throws {
        let folder = try TemporaryDirectory(prefix: "pack-store")
        let url = folder.appending("asset-packs.sqlite")
        let other = PendingAssetPackDownload(
            app: "com.example.app", entry: AssetPackDownloadManifest.Entry(
                id: "Transcripts", version: 1, url: "Transcripts.aar", downloadSize: 10, downloadPolicy: .onDemand,
                sha256: String(repeating: "cd", count: 32), installSize: 8),
            archiveURL: URL(string: "http://127.0.0.1:9/Transcripts.aar")!, isEssential: false, rowID: 8)
        let pack = InstalledAssetPack(
            bundleIdentifier: "com.example.app", packID: "Slides", version: 3, downloadPolicy: .onDemand, installSize: 4000,
            sizeOnDisk: 4096, installed: Date(timeIntervalSince1970: 5), lastUsed: Date(timeIntervalSince1970: 5))
        do {
            let store = try AssetPackStore(url: url)
            try await store.savePending(PendingAssetPackDownload(
                app: "com.example.app", entry: Self.slides, archiveURL: URL(string: "http://127.0.0.1:9/Slides.aar")!,
                isEssential: false, rowID: 7))
            try await store.savePending(other)
            try await store.recordArrival(pack)
        }
        let reopened = try AssetPackStore(url: url)
        #expect(try await reopened.packs() == [pack])
        #expect(try await reopened.pendingDownloads() == [other])
    }
}
