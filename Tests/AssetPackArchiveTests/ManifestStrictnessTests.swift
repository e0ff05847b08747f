/*
Abstract:
Unit tests of the packaging manifest's keys: unknown keys and language refused by name, sourceRoot honoured, Apple's template accepted.
*/

@testable import AssetPackArchive
import AssetPackFormat
import Foundation
import Testing

@Suite("The packaging manifest's keys")
struct ManifestStrictnessTests {
    private static let policy = #""downloadPolicy": { "onDemand": {} }"#

    @Test("A misspelt key is refused with its name and the key it most likely meant, and nothing is written")
    func refusesUnknownKeys() throws {
        let fixture = try PackFixture()
        try fixture.write("x", to: "a.txt")
        let cases: [(key: String, expected: String)] = [
            ("assetPackId", #"unknown key "assetPackId". Did you mean "assetPackID"?"#),
            ("platform", #"unknown key "platform". Did you mean "platforms"?"#),
            ("fileSelector", #"unknown key "fileSelector". Did you mean "fileSelectors"?"#),
            ("comment", #"unknown key "comment". A packaging manifest has only assetPackID, downloadPolicy, "#
                + "fileSelectors, platforms, sourceRoot, userInfo, version."),
        ]
        for (key, expected) in cases {
            let manifest = #"{ "assetPackID": "P", \#(Self.policy), "fileSelectors": [{ "file": "a.txt" }], "\#(key)": 1 }"#
            do {
                try fixture.package(manifest, to: "P.aar")
                Issue.record("A manifest with \(key) was packaged.")
            } catch let error as AssetPackArchiveError {
                #expect(error.kind == .invalidSource)
                #expect(error.problem.hasPrefix(expected), "\(error)")
                #expect(error.path.hasSuffix("Manifest.json"))
            }
            #expect(!FileManager.default.fileExists(atPath: fixture.root.appending(path: "P.aar").path))
        }
    }

    @Test("language is refused with the reason: packs here have no language")
    func refusesLanguage() throws {
        let fixture = try PackFixture()
        try fixture.write("x", to: "a.txt")
        let manifest = #"{ "assetPackID": "P", \#(Self.policy), "fileSelectors": [{ "file": "a.txt" }], "language": "fr" }"#
        let error = try #require(throws: AssetPackArchiveError.self) { try fixture.package(manifest, to: "P.aar") }
        #expect(error.problem.hasPrefix("language: localizes a pack for one language"), "\(error)")
        #expect(error.problem.contains("packs on this device have no language"))
    }

    @Test("sourceRoot is the folder selectors resolve against, relative to the manifest's folder")
    func sourceRootResolvesAgainstTheManifest() throws {
        let fixture = try PackFixture()
        try fixture.write("intro", to: "Sources/Videos/Introduction.m4v")
        try fixture.write("decoy", to: "Videos/Introduction.m4v")
        let manifest = try fixture.write(#"""
            { "assetPackID": "Tutorial", \#(Self.policy), "sourceRoot": "../Sources",
              "fileSelectors": [{ "directory": "Videos" }] }
            """#, to: "Manifests/Manifest.json")
        // Run from a folder that has nothing selected: the sources are found through the manifest.
        let elsewhere = fixture.root.appending(path: "Elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let header = try AssetPackPackager.package(manifest: manifest, workingDirectory: elsewhere,
                                                   output: fixture.root.appending(path: "Tutorial.aar"))
        #expect(header.files.map(\.path) == ["Videos/Introduction.m4v"])
        #expect(header.files.first?.sha256 == PackFixture.sha256("intro"))

        let missing = try fixture.write(#"""
            { "assetPackID": "Tutorial", \#(Self.policy), "sourceRoot": "Nowhere", "fileSelectors": [{ "file": "a" }] }
            """#, to: "Manifests/Missing.json")
        let error = try #require(throws: AssetPackArchiveError.self) {
            try AssetPackPackager.package(manifest: missing, workingDirectory: fixture.root,
                                          output: fixture.root.appending(path: "Missing.aar"))
        }
        #expect(error.problem.hasPrefix("sourceRoot: names \(fixture.root.path)/Manifests/Nowhere, which is not a folder"),
                "\(error)")
        let notFound = try fixture.write(#"""
            { "assetPackID": "Tutorial", \#(Self.policy), "sourceRoot": "../Sources", "fileSelectors": [{ "file": "a" }] }
            """#, to: "Manifests/NotFound.json")
        let selectorError = try #require(throws: AssetPackArchiveError.self) {
            try AssetPackPackager.package(manifest: notFound, workingDirectory: fixture.root,
                                          output: fixture.root.appending(path: "NotFound.aar"))
        }
        #expect(selectorError.problem.hasSuffix("paths are relative to sourceRoot."), "\(selectorError)")
    }

    @Test("Apple's template from the WWDC session, tabs, comments and all, packages once its placeholders are filled")
    func applesTemplateIsAccepted() throws {
        let fixture = try PackFixture()
        try fixture.write("welcome", to: "Welcome.txt")
        try fixture.write("video", to: "Videos/Introduction.m4v")
        let template = """
            {
            \t"assetPackID": "Tutorial",
            \t"downloadPolicy": {
            \t\t"essential": { // Possible keys: “essential”, “prefetch”, or “onDemand”
            \t\t\t// Essential and prefetch download policies require a list of installation event types.
            \t\t\t"installationEventTypes": [
            \t\t\t\t// Remove undesired elements from this array.
            \t\t\t\t"firstInstallation",
            \t\t\t\t"subsequentUpdate"
            \t\t\t]
            \t\t}
            \t},
            \t"fileSelectors": [
            \t\t// You can add as many file and/or directory selectors as you want.
            \t\t{
            \t\t\t"file": "Welcome.txt"
            \t\t},
            \t\t{
            \t\t\t"directory": "Videos"
            \t\t}
            \t],
            \t"platforms": [
            \t\t// Remove undesired elements from this array.
            \t\t"iOS",
            \t\t"macOS",
            \t\t"tvOS",
            \t\t"visionOS",
            \t],
            }
            """
        let header = try fixture.package(template, to: "Tutorial.aar")
        #expect(header.assetPackID == "Tutorial")
        #expect(header.platforms == ["iOS", "macOS", "tvOS", "visionOS"])
        #expect(header.files.map(\.path) == ["Welcome.txt", "Videos/Introduction.m4v"])
    }
}
