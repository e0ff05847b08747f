/*
Abstract:
Tests of Apple's download-manifest create flags in ba-package: --asset-pack-versions, the platform flags and -q.
*/

import AssetPackagingTool
import AssetPackFormat
import Foundation
import Testing

@Suite("Apple's download-manifest create flags")
struct DownloadManifestFlagsTests {
    /// Two archives: Tutorial version 2 for iOS and macOS, Levels version 1 for tvOS.
    private func archives() throws -> PackFixture {
        let fixture = try PackFixture()
        try fixture.write("intro", to: "Videos/Introduction.m4v")
        try fixture.write("level", to: "Levels/1.map")
        try fixture.package(#"""
            { "assetPackID": "Tutorial", "version": 2, "downloadPolicy": { "onDemand": {} },
              "fileSelectors": [{ "directory": "Videos" }], "platforms": ["iOS", "macOS"] }
            """#, named: "Tutorial.json", to: "Tutorial.aar")
        try fixture.package(#"""
            { "assetPackID": "Levels", "downloadPolicy": { "onDemand": {} },
              "fileSelectors": [{ "directory": "Levels" }], "platforms": ["tvOS"] }
            """#, named: "Levels.json", to: "Levels.aar")
        return fixture
    }

    @Test("Apple's command line, versions listed after one flag, writes the manifest with those versions")
    func applesCommandLine() throws {
        let fixture = try archives()
        let result = baPackage(["download-manifest", "create", "Tutorial.aar", "Levels.aar", "--asset-pack-versions", "2", "1",
                          "--ios", "--tvos", "--download-base-url", "https://cdn.example.com/packs/",
                          "--output-path", "manifest.json", "-q"], in: fixture.root)
        #expect(result.0 == .success, "\(result.error)")
        #expect(result.output.isEmpty)
        let manifest = try AssetPackDownloadManifest(
            parsing: try Data(contentsOf: fixture.root.appending(path: "manifest.json")), source: "manifest.json")
        #expect(manifest.assetPacks.map(\.id) == ["Tutorial", "Levels"])
        #expect(manifest.assetPacks.map(\.version) == [2, 1])
        #expect(manifest.assetPacks.map(\.url) == ["https://cdn.example.com/packs/Tutorial", "https://cdn.example.com/packs/Levels"])
    }

    @Test("A version that is not the archive's is refused naming the archive, and nothing is written")
    func versionMustBeTheArchives() throws {
        let fixture = try archives()
        let result = baPackage(["download-manifest", "create", "Tutorial.aar", "--asset-pack-versions", "3", "-o", "m.json"],
                         in: fixture.root)
        #expect(result.0 == .failure)
        #expect(result.error.contains("Tutorial.aar: is Tutorial version 2, but --asset-pack-versions gives 3 for it."),
                "\(result.error)")
        #expect(result.error.contains(#"set "version": 3 in its packaging manifest"#))
        #expect(!FileManager.default.fileExists(atPath: fixture.root.appending(path: "m.json").path))
    }

    @Test("A count of versions that is not the count of archives, or a version that is not a number, is a usage error")
    func versionCountAndSpelling() throws {
        let fixture = try archives()
        let short = baPackage(["download-manifest", "create", "Tutorial.aar", "Levels.aar", "--asset-pack-versions", "2",
                         "-o", "m.json"], in: fixture.root)
        #expect(short.0 == .usage)
        #expect(short.error.hasPrefix("ba-package: --asset-pack-versions gives 1 version(s) for 2 archive(s)"), "\(short.error)")
        let word = baPackage(["download-manifest", "create", "Tutorial.aar", "--asset-pack-versions", "two", "-o", "m.json"],
                       in: fixture.root)
        #expect(word.0 == .usage)
        #expect(word.error.hasPrefix(#"ba-package: --asset-pack-versions takes whole numbers from 0 to 2147483647, not "two"."#),
                "\(word.error)")
    }

    @Test("An archive for none of the platforms given is refused naming it and its platforms")
    func platformsMustMatch() throws {
        let fixture = try archives()
        let result = baPackage(["download-manifest", "create", "Tutorial.aar", "Levels.aar", "--macos", "-o", "m.json"],
                         in: fixture.root)
        #expect(result.0 == .failure)
        #expect(result.error.contains("Levels.aar: is Levels for tvOS, not for macOS, the platforms this manifest is for"),
                "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: fixture.root.appending(path: "m.json").path))
        let matching = baPackage(["download-manifest", "create", "Tutorial.aar", "--macos", "-o", "m.json"], in: fixture.root)
        #expect(matching.0 == .success, "\(matching.error)")
        #expect(matching.output.hasSuffix("Wrote the download manifest of 1 pack to m.json."))
    }
}
