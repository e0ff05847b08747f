/*
Abstract:
End-to-end: an app that sets BAUsesAppleHosting, with StoreKit's extension, gets its packs from the device's Apple hosting server.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Apple-hosted asset packs with the real processes", .serialized, .timeLimit(.minutes(3)))
struct AppleHostedAssetPackTests {
    /// Where the asset server keeps the app's Apple-hosted packs, under its catalog.
    static let hostingFolder = "apple-hosting/\(AssetPackScenario.app)"

    /// Apple-hosted packs for the app (an essential one and an on-demand one) under `apple-hosting/ID/`,
    /// and a self-hosted pack of the same name at the top, which an Apple-hosted app must never get.
    static func hostedPacks(_ packs: URL, _ folder: URL) async throws {
        let hosted = packs.appending(path: hostingFolder, directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: hosted, withIntermediateDirectories: true)
        try await AssetPackScenario.package("Intro", policy: AssetPackScenario.essential,
                                            files: ["Intro/welcome.txt": Data("Hosted by the store".utf8)], into: hosted, in: folder)
        try await AssetPackScenario.package("Slides", policy: AssetPackScenario.onDemand,
                                            files: ["Slides/wwdc23-10108.pdf": AssetPackInstallTests.bytes(300_000, seed: 7)],
                                            into: hosted, in: folder)
        try await AssetPackScenario.publish(hosted)
        let selfHosted = folder.appending(path: "self-hosted", directoryHint: .isDirectory)
        try await AssetPackScenario.package("Intro", policy: AssetPackScenario.essential,
                                            files: ["Intro/welcome.txt": Data("Self-hosted".utf8)], into: packs, in: selfHosted)
    }

    @Test("With the device's Apple hosting server set, the StoreKit extension is asked, and the packs install and read from it")
    func packsFromTheHostingServer() async throws {
        try await withAssetPacks(prepare: Self.hostedPacks) { device in
            var device = device
            device.bundle.usesAppleHosting = true
            let set = try await device.scenario.runTool(["settings", "--apple-hosting-server", device.server.url("").absoluteString])
            #expect(set.status.isSuccess, "\(set.standardError)")
            #expect(set.standardOutput.contains("apple-hosting-server=\(device.server.url("").absoluteString)"), "\(set.standardOutput)")

            let result = try await device.install(extensionExecutable: "asset-pack-test-store-extension")
            #expect(result.status.isSuccess, "\(result.standardError)")
            #expect(result.standardOutput.contains("1 of 1 essential asset pack(s)"), "\(result.standardOutput)")
            #expect(device.installedVersion(of: "Intro") == 1, "the essential pack is in place before the app may launch")
            let asked = (try? String(contentsOf: device.recordsFolder.appending(path: "asked.txt"), encoding: .utf8)) ?? ""
            #expect(asked == "Intro 1 store\n", "the StoreDownloaderExtension was asked about the hosted essential pack: \(asked)")

            let intro = device.scenario.folder.appending("intro.txt")
            try await device.app(["read", "Intro/welcome.txt", "--pack", "Intro", "--out", intro.path])
            #expect(try String(contentsOf: intro, encoding: .utf8) == "Hosted by the store", "the hosted pack, not the self-hosted one")

            let lines = try await device.app(["ensure", "Slides"])
            #expect(lines.last == "available Slides true", "\(lines)")
            let slides = device.scenario.folder.appending("slides.pdf")
            try await device.app(["read", "Slides/wwdc23-10108.pdf", "--pack", "Slides", "--out", slides.path])
            #expect(try Data(contentsOf: slides) == AssetPackInstallTests.bytes(300_000, seed: 7))

            let scenario = device.scenario
            #expect(try !scenario.accessEntries(for: "/\(Self.hostingFolder)/manifest.json").isEmpty)
            #expect(try !scenario.accessEntries(for: "/\(Self.hostingFolder)/Intro.aar").isEmpty)
            #expect(try !scenario.accessEntries(for: "/\(Self.hostingFolder)/Slides.aar").isEmpty)
            #expect(try scenario.accessEntries(for: "/manifest.json").isEmpty, "nothing self-hosted was fetched")
            #expect(try scenario.accessEntries(for: "/Intro.aar").isEmpty, "nothing self-hosted was fetched")
        }
    }

    @Test("Without an Apple hosting server, the install and the manager say how to set one")
    func noHostingServer() async throws {
        try await withAssetPacks(prepare: Self.hostedPacks) { device in
            var device = device
            device.bundle.usesAppleHosting = true
            let result = try await device.install(extensionExecutable: "asset-pack-test-store-extension")
            let output = result.standardOutput + result.standardError
            #expect(output.contains("sets BAUsesAppleHosting, but this device has no Apple hosting server"), "\(output)")
            #expect(output.contains("backgroundassets-debug settings --apple-hosting-server"), "\(output)")
            #expect(device.installedVersion(of: "Intro") == nil)
            let lines = try await device.app(["manifest"], expectSuccess: false)
            #expect(lines.last?.contains("backgroundassets-debug settings --apple-hosting-server") == true, "\(lines)")
        }
    }
}
