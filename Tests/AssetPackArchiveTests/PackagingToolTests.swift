/*
Abstract:
Tests of the ba-package command: the template, packaging, the download manifest, and its exit codes.
*/

import ArgumentParsing
import AssetPackagingTool
import AssetPackFormat
import Foundation
import Testing
import TestSupport

@Suite("The ba-package command")
struct PackagingToolTests {
    @Test("The template, filled in, packages a pack, and the download manifest lists it")
    func templateToDownloadManifest() throws {
        let fixture = try PackFixture()
        #expect(baPackage(["template", "-o", "Manifest.json"], in: fixture.root).0 == .success)
        let template = try String(contentsOf: fixture.root.appending(path: "Manifest.json"), encoding: .utf8)
        try fixture.write(template.replacingOccurrences(of: "[Asset-Pack ID]", with: "Tutorial")
            .replacingOccurrences(of: "[Path to File]", with: "Welcome.txt")
            .replacingOccurrences(of: "[Path to Directory]", with: "Videos"), to: "Manifest.json")
        try fixture.write("welcome", to: "Welcome.txt")
        try fixture.write("video", to: "Videos/Introduction.m4v")

        let packaged = baPackage(["Manifest.json", "-o", "Tutorial.aar"], in: fixture.root)
        #expect(packaged.0 == .success, "\(packaged.error)")
        #expect(packaged.output == "Packaged Tutorial version 1 (essential (firstInstallation, subsequentUpdate)): "
            + "2 files, 12 bytes, into Tutorial.aar.")
        // One file is said as one.
        try fixture.write(template.replacingOccurrences(of: "[Asset-Pack ID]", with: "Welcome")
            .replacingOccurrences(of: "[Path to File]", with: "Welcome.txt")
            .replacingOccurrences(of: "[Path to Directory]", with: "Empty"), to: "One.json")
        try FileManager.default.createDirectory(at: fixture.root.appending(path: "Empty"), withIntermediateDirectories: true)
        let single = baPackage(["One.json", "-o", "Welcome.aar"], in: fixture.root)
        #expect(single.output.hasSuffix(": 1 file, 7 bytes, into Welcome.aar."), "\(single.output) \(single.error)")

        let listed = baPackage(["download-manifest", "create", "Tutorial.aar", "--download-base-url",
                          "https://cdn.example.com/packs/", "--output-path", "manifest.json", "--quiet"], in: fixture.root)
        #expect(listed.0 == .success, "\(listed.error)")
        #expect(listed.output.isEmpty)
        let manifest = try AssetPackDownloadManifest(
            parsing: try Data(contentsOf: fixture.root.appending(path: "manifest.json")), source: "manifest.json")
        #expect(manifest.assetPacks.map(\.url) == ["https://cdn.example.com/packs/Tutorial"])
        #expect(manifest.assetPacks.first?.installSize == 12)

        // Without a base URL, the archive's path relative to the manifest: serve the folder and both are there.
        #expect(baPackage(["download-manifest", "create", "Tutorial.aar", "-o", "manifest.json"], in: fixture.root).0 == .success)
        let relative = try AssetPackDownloadManifest(
            parsing: try Data(contentsOf: fixture.root.appending(path: "manifest.json")), source: "manifest.json")
        #expect(relative.assetPacks.map(\.url) == ["Tutorial.aar"])
    }

    @Test("Mistakes on the command line exit 64 with the usage; refused packs exit 1 naming the file")
    func exitCodes() throws {
        let fixture = try PackFixture()
        for arguments in [[], ["Manifest.json"], ["--bogus"], ["download-manifest", "list"],
                          ["download-manifest", "create", "-o", "m.json"],
                          ["template", "--download-base-url", "https://example.com"],
                          ["download-manifest", "create", "a.aar", "-o", "m.json", "--download-base-url", "ftp://x/"]] {
            let result = baPackage(arguments, in: fixture.root)
            #expect(result.0 == .usage, "\(arguments)")
            #expect(result.error.contains("Usage: ba-package"), "\(arguments)")
        }
        let missing = baPackage(["Missing.json", "-o", "P.aar"], in: fixture.root)
        #expect(missing.0 == .failure)
        #expect(missing.error.contains("Missing.json: does not exist; write a packaging manifest with ba-package template"))
        try fixture.write("not an archive", to: "fake.aar")
        let fake = baPackage(["download-manifest", "create", "fake.aar", "-o", "m.json"], in: fixture.root)
        #expect(fake.0 == .failure)
        #expect(fake.error.contains("fake.aar: is not an asset-pack archive"))
        #expect(!FileManager.default.fileExists(atPath: fixture.root.appending(path: "m.json").path))
    }

    @Test("Every option --help lists is accepted, and every option accepted is in --help")
    func helpListsWhatIsParsed() throws {
        let fixture = try PackFixture()
        let help = baPackage(["--help"], in: fixture.root).output
        for line in HelpOptions.probes(inHelp: help) {
            let result = baPackage(line, in: fixture.root)
            // The unlisted word is the one refused: the option before it, and its value, were read.
            #expect(result.0 == .usage, "\(line)")
            #expect(result.error.hasPrefix("ba-package: \(HelpOptions.unlistedRefusal)"), "\(line): \(result.error)")
        }
        let accepted = AssetPackagingTool.signature.allOptions.flatMap(\.names) + ["-h", "--help"]
        #expect(Set(accepted) == Set(HelpOptions.spellings(inHelp: help)), "\(help)")
    }

    @Test("The executable prints the template and exits with the documented codes")
    func executable() async throws {
        let tool = try ProductsDirectory.executable(named: "ba-package")
        let template = try await runCommand(tool.path, arguments: ["template"])
        #expect(template.status == .exited(0))
        #expect(template.standardOutput.contains("\"assetPackID\": \"[Asset-Pack ID]\""))
        let help = try await runCommand(tool.path, arguments: ["--help"])
        #expect(help.status == .exited(0))
        #expect(help.standardOutput.hasPrefix("Usage: ba-package"))
        let mistake = try await runCommand(tool.path, arguments: ["--output-path"])
        #expect(mistake.status == .exited(64))
    }
}
