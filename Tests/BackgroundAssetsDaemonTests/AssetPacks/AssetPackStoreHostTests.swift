/*
Abstract:
Tests of the asset-pack store and host: records that survive a restart, and real archives installed in a device root.
*/

import AssetPackArchive
import AssetPackFormat
import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Asset-pack store and host")
struct AssetPackStoreHostTests {
    @Test("Installed packs are recorded with their policy and last use, and survive reopening the store")
    func store() async throws {
        let folder = try TemporaryDirectory(prefix: "pack-store")
        let url = folder.appending("asset-packs.sqlite")
        let pack = InstalledAssetPack(
            bundleIdentifier: "com.example.app", packID: "Transcripts", version: 2, downloadPolicy: AssetPackPolicyTests.prefetch,
            installSize: 900, sizeOnDisk: 4096, installed: Date(timeIntervalSince1970: 10), lastUsed: Date(timeIntervalSince1970: 10))
        do {
            let store = try AssetPackStore(url: url)
            try await store.save(pack)
            try await store.save(InstalledAssetPack(
                bundleIdentifier: "com.example.other", packID: "Slides", version: 1, downloadPolicy: .onDemand, installSize: 1,
                sizeOnDisk: 1, installed: Date(timeIntervalSince1970: 1), lastUsed: Date(timeIntervalSince1970: 1)))
            try await store.markUsed(app: "com.example.app", packID: "Transcripts", at: Date(timeIntervalSince1970: 50))
        }
        let reopened = try AssetPackStore(url: url)
        var expected = pack
        expected.lastUsed = Date(timeIntervalSince1970: 50)
        #expect(try await reopened.packs(of: "com.example.app") == [expected])
        #expect(try await reopened.packs().count == 2)
        #expect(try await reopened.remove(app: "com.example.other", packID: nil) == 1)
        #expect(try await reopened.packs().map(\.packID) == ["Transcripts"])
    }

    /// Packages a pack of one file into `folder`.
    private func archive(_ id: String, version: Int, contents: String, in folder: TemporaryDirectory) throws -> URL {
        let file = folder.appending("\(id)-\(version).txt")
        try Data(contents.utf8).write(to: file)
        let output = folder.appending("\(id)-\(version).aar")
        try AssetPackArchiveWriter.write(
            identity: .init(assetPackID: id, version: version, downloadPolicy: .onDemand),
            sources: [.init(path: "Slides/keynote.txt", file: file)], to: output)
        return output
    }

    @Test("The host installs a verified archive into the app group container and removes it again")
    func host() throws {
        let folder = try TemporaryDirectory(prefix: "pack-host")
        let paths = DevicePaths(root: folder.appending("device"))
        let host = AssetPackHost(paths: paths)
        let group = "group.com.example.app"
        let v1 = try archive("Slides", version: 1, contents: "one", in: folder)
        let manifest = try AssetPackDownloadManifestBuilder.manifest(for: [v1], downloadBaseURL: URL(string: "https://cdn.example.com/"))
        let entry = try #require(manifest.assetPacks.first)
        let (installation, size) = try host.install(archive: v1, entry: entry, appGroup: group)
        #expect(installation.version == 1 && size >= 3)
        #expect(host.installedVersions(appGroup: group) == ["Slides": 1])
        let layout = try #require(host.layout(forAppGroup: group))
        #expect(layout.root.path.hasPrefix(paths.container(forAppGroup: group)?.path ?? "-"))
        #expect(try Data(contentsOf: layout.currentLink("Slides").appending(path: "Slides/keynote.txt")) == Data("one".utf8))

        // An archive that is not the one the manifest lists is refused, and version 1 stays.
        let v2 = try archive("Slides", version: 2, contents: "two", in: folder)
        var promised = entry
        promised.version = 2
        #expect(throws: AssetPackArchiveError.self) { try host.install(archive: v2, entry: promised, appGroup: group) }
        #expect(throws: AssetPackArchiveError.self) { try host.install(archive: v1, entry: promised, appGroup: group) }
        #expect(host.installedVersions(appGroup: group) == ["Slides": 1])

        #expect(try host.remove(packID: "Slides", appGroup: group))
        #expect(host.installedVersions(appGroup: group).isEmpty)
        #expect(host.removeLeftovers(appGroups: [group]).isEmpty)
        #expect((host.freeBytes() ?? 0) > 0)
        #expect(throws: AssetPackArchiveError.self) { try host.install(archive: v1, entry: entry, appGroup: "../x") }
    }
}
