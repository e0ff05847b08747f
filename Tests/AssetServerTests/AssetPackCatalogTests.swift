/*
Abstract:
Tests of the catalog's asset packs: a generated catalog's three packs, a folder of packs served as it is, and both over HTTP.
*/

import AssetPackArchive
import AssetPackFormat
@testable import AssetServer
import Foundation
import Testing
import TestSupport

@Suite("Asset packs in the catalog", .serialized, .timeLimit(.minutes(3)))
struct AssetPackCatalogTests {
    private func downloadManifest(at url: URL) throws -> AssetPackDownloadManifest {
        try AssetPackDownloadManifest(parsing: try Data(contentsOf: url), source: url.path)
    }

    @Test("A generated catalog has an essential, a prefetch and an on-demand pack whose archives verify")
    func generatedPacks() throws {
        let folder = try TemporaryDirectory(prefix: "catalog-packs")
        _ = try Catalog.prepare(at: folder.url, sessionCount: 3, sessionSize: 256)
        let packs = folder.appending("asset-packs")
        let manifest = try downloadManifest(at: packs.appending(path: "manifest.json"))
        #expect(manifest.assetPacks.map(\.id) == ["SessionResources", "Transcripts", "Slides-WWDC23"])
        #expect(manifest.assetPacks.map(\.downloadPolicy.name) == ["essential", "prefetch", "onDemand"])
        #expect(manifest.assetPacks.map(\.url) == ["SessionResources.aar", "Transcripts.aar", "Slides-WWDC23.aar"])
        for entry in manifest.assetPacks {
            let reader = try AssetPackArchiveReader(url: packs.appending(path: entry.url))
            #expect(reader.archiveSize == entry.downloadSize)
            #expect(try reader.extract(into: nil, wholeFileDigest: true) == entry.sha256)
            #expect(reader.header.version == 1)
        }
        let slides = try AssetPackArchiveReader(url: packs.appending(path: "Slides-WWDC23.aar"))
        #expect(slides.header.files.map(\.path) == ["Slides/wwdc23-10108.pdf", "Slides/wwdc23-10006.pdf", "Slides/wwdc23-10164.pdf"])
        #expect(!FileManager.default.fileExists(atPath: folder.appending(".generating").path))
    }

    @Test("A folder holding packs and their download manifest is served as it is")
    func folderOfPacks() throws {
        let folder = try TemporaryDirectory(prefix: "pack-folder")
        let source = try TemporaryDirectory(prefix: "pack-source")
        try Data("level one".utf8).write(to: source.appending("level1.json"))
        try Data(#"{ "assetPackID": "Level1", "downloadPolicy": { "onDemand": {} }, "fileSelectors": [{ "file": "level1.json" }] }"#.utf8)
            .write(to: source.appending("Manifest.json"))
        let archive = folder.appending("Level1.aar")
        try AssetPackPackager.package(manifest: source.appending("Manifest.json"), workingDirectory: source.url, output: archive)
        let manifest = try AssetPackDownloadManifestBuilder.manifest(for: [archive], downloadBaseURL: nil, manifestFolder: folder.url)
        try manifest.encoded().write(to: folder.appending("manifest.json"))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        let catalog = try Catalog.prepare(at: folder.url)
        #expect(catalog.origin == .assetPacks(count: 1))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == before)
    }

    @Test("The server serves the download manifest and the archives it lists, byte for byte")
    func servedOverHTTP() async throws {
        let folder = try TemporaryDirectory(prefix: "catalog-served")
        try await withAssetServer(catalogURL: folder.url, sessions: 2, sessionSize: 1024) { server in
            let response = try await server.raw("GET", "/asset-packs/manifest.json")
            #expect(response.statusCode == 200)
            let manifest = try AssetPackDownloadManifest(parsing: Data(response.body), source: "/asset-packs/manifest.json")
            let base = try #require(URL(string: "http://127.0.0.1:\(server.port)/asset-packs/manifest.json"))
            for entry in manifest.assetPacks {
                let url = try #require(entry.archiveURL(relativeTo: base))
                let archive = try await server.raw("GET", url.path)
                #expect(archive.statusCode == 200)
                #expect(archive.body == (try server.fileBytes(url.path)))
                #expect(Int64(archive.body.count) == entry.downloadSize)
            }
        }
    }
}
