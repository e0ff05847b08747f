/*
Abstract:
Unit tests of packaging: the manifest's selectors, paths relative to the working folder, and what is refused.
*/

@testable import AssetPackArchive
import AssetPackFormat
import Foundation
import Testing

@Suite("Packaging a folder into an asset pack")
struct PackagingTests {
    @Test("A commented manifest packages its files and folders under their relative paths")
    func packagesSelectedFiles() throws {
        let fixture = try PackFixture()
        try fixture.write("intro", to: "Videos/Introduction.m4v")
        try fixture.write("stone", to: "Textures/stone.png")
        try fixture.write("wood", to: "Textures/Wood/oak.png")
        try fixture.write("ignored", to: "Other/unselected.txt")
        let header = try fixture.package("""
            {
                // Apple's template is commented, and so may a manifest be.
                "assetPackID": "Tutorial",
                "version": 3,
                "downloadPolicy": { "essential": { "installationEventTypes": ["firstInstallation",] } },
                "fileSelectors": [
                    { "file": "Videos/Introduction.m4v" },
                    { "directory": "Textures" }, /* everything in it */
                ],
                "platforms": ["iOS", "macOS"],
                "userInfo": { "title": "The tutorial" },
            }
            """, to: "Tutorial.aar")
        #expect(header.assetPackID == "Tutorial")
        #expect(header.version == 3)
        #expect(header.downloadPolicy == .essential(installationEventTypes: [.firstInstallation]))
        #expect(header.files.map(\.path) == ["Videos/Introduction.m4v", "Textures/Wood/oak.png", "Textures/stone.png"])
        #expect(header.directories == ["Videos", "Textures", "Textures/Wood"])
        #expect(header.files[0].sha256 == PackFixture.sha256("intro"))
        #expect(header.userInfo == .object(["title": .string("The tutorial")]))
        let reader = try AssetPackArchiveReader(url: fixture.root.appending(path: "Tutorial.aar"))
        #expect(reader.header == header)
    }

    @Test("Selectors that leave the folder, are absolute, or name two things are refused with the field named")
    func refusesBadSelectors() throws {
        let fixture = try PackFixture()
        try fixture.write("x", to: "a.txt")
        let cases: [(String, String)] = [
            (#"{ "file": "../a.txt" }"#, "fileSelectors[0].file"),
            (#"{ "file": "/etc/passwd" }"#, "fileSelectors[0].file"),
            (#"{ "directory": "." }"#, "fileSelectors[0].directory"),
            (#"{ "file": "a.txt", "directory": "b" }"#, "fileSelectors[0]"),
            (#"{ "file": "missing.txt" }"#, "fileSelectors[0].file"),
            (#"{ "directory": "a.txt" }"#, "fileSelectors[0].directory"),
        ]
        for (selector, field) in cases {
            let manifest = #"{ "assetPackID": "P", "downloadPolicy": { "onDemand": {} }, "fileSelectors": [\#(selector)] }"#
            do {
                try fixture.package(manifest, to: "P.aar")
                Issue.record("\(selector) was packaged.")
            } catch let error as AssetPackArchiveError {
                #expect(error.kind == .invalidSource)
                #expect(error.problem.contains(field), "for \(selector): \(error)")
            }
        }
    }

    @Test("A symbolic link in a selected folder is refused: packs hold regular files only")
    func refusesSymbolicLinks() throws {
        let fixture = try PackFixture()
        try fixture.write("x", to: "Pack/real.txt")
        try FileManager.default.createSymbolicLink(atPath: fixture.root.appending(path: "Pack/link.txt").path,
                                                   withDestinationPath: "/etc/hostname")
        let manifest = #"{ "assetPackID": "P", "downloadPolicy": { "onDemand": {} }, "fileSelectors": [{ "directory": "Pack" }] }"#
        #expect(throws: AssetPackArchiveError.self) { try fixture.package(manifest, to: "P.aar") }
        #expect(!FileManager.default.fileExists(atPath: fixture.root.appending(path: "P.aar").path))
    }

    @Test("An unknown platform and an unknown policy are refused with the field named")
    func refusesUnknownValues() throws {
        let fixture = try PackFixture()
        try fixture.write("x", to: "a.txt")
        let unknownPlatform = #"{ "assetPackID": "P", "downloadPolicy": { "onDemand": {} }, "fileSelectors": [{ "file": "a.txt" }], "platforms": ["Linux"] }"#
        let unknownPolicy = #"{ "assetPackID": "P", "downloadPolicy": { "sometimes": {} }, "fileSelectors": [{ "file": "a.txt" }] }"#
        for (manifest, field) in [(unknownPlatform, "platforms[0]"), (unknownPolicy, "downloadPolicy.sometimes")] {
            do {
                try fixture.package(manifest, to: "P.aar")
                Issue.record("\(manifest) was packaged.")
            } catch let error as AssetPackArchiveError {
                #expect(error.problem.hasPrefix(field), "\(error)")
            }
        }
    }

    @Test("The download manifest lists each archive with its version, sizes and SHA-256, under the base URL")
    func buildsDownloadManifest() throws {
        let fixture = try PackFixture()
        let tutorial = try fixture.packageFiles(["a.txt": "alpha"], id: "Tutorial", version: 2, to: "Tutorial.aar")
        let level = try fixture.packageFiles(["b.txt": "beta"], id: "Level1", to: "Level1.aar")
        let manifest = try AssetPackDownloadManifestBuilder.manifest(
            for: [tutorial, level], downloadBaseURL: URL(string: "https://cdn.example.com/packs"))
        #expect(manifest.assetPacks.map(\.url) == ["https://cdn.example.com/packs/Tutorial", "https://cdn.example.com/packs/Level1"])
        #expect(manifest.assetPacks[0].version == 2)
        #expect(manifest.assetPacks[0].installSize == 5)
        let size = try FileManager.default.attributesOfItem(atPath: tutorial.path)[.size] as? Int
        #expect(manifest.assetPacks[0].downloadSize == Int64(size ?? -1))
        var digest = ArchiveDigest()
        digest.update(Array(try Data(contentsOf: tutorial)))
        let expected = digest.finalize()
        #expect(manifest.assetPacks[0].sha256 == expected)
        let relative = try AssetPackDownloadManifestBuilder.manifest(for: [level], downloadBaseURL: nil, manifestFolder: fixture.root)
        #expect(relative.assetPacks[0].url == "Level1.aar")
        #expect(throws: AssetPackArchiveError.self) {
            try AssetPackDownloadManifestBuilder.manifest(for: [level], downloadBaseURL: nil,
                                                          manifestFolder: fixture.root.appending(path: "elsewhere"))
        }
    }

    @Test("Two archives of one pack cannot share a download manifest")
    func refusesTwoArchivesOfOnePack() throws {
        let fixture = try PackFixture()
        let first = try fixture.packageFiles(["a.txt": "1"], version: 1, to: "one.aar")
        let second = try fixture.packageFiles(["a.txt": "2"], version: 2, to: "two.aar")
        #expect(throws: AssetPackArchiveError.self) {
            try AssetPackDownloadManifestBuilder.manifest(for: [first, second], downloadBaseURL: nil)
        }
    }
}
