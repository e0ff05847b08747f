/*
Abstract:
End-to-end: a managed app's packs by policy, and AssetPackManager in the app, with the real processes.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Asset packs with the real processes", .serialized, .timeLimit(.minutes(3)))
struct AssetPackInstallTests {
    /// Bytes no two packs share, so a file read from the wrong pack or version shows.
    static func bytes(_ count: Int, seed: UInt64) -> Data {
        var generator = SplitMix64(seed: seed)
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    static func standardPacks(_ packs: URL, _ folder: URL) async throws {
        try await AssetPackScenario.package("Intro", policy: AssetPackScenario.essential,
                                            files: ["Intro/welcome.txt": Data("Welcome to WWDC".utf8)], into: packs, in: folder)
        try await AssetPackScenario.package("Transcripts", policy: AssetPackScenario.prefetch,
                                            files: ["Transcripts/wwdc23-10108.txt": bytes(20_000, seed: 2)], into: packs, in: folder)
        try await AssetPackScenario.package("Slides", policy: AssetPackScenario.onDemand,
                                            files: ["Slides/wwdc23-10108.pdf": bytes(600_000, seed: 3)], into: packs, in: folder)
    }

    @Test("The essential pack is installed before the app may launch, and the prefetch pack lands after, without the app")
    func essentialAndPrefetch() async throws {
        try await withAssetPacks(prepare: Self.standardPacks) { device in
            let result = try await device.install()
            #expect(result.status.isSuccess, "\(result.standardError)")
            #expect(device.installedVersion(of: "Intro") == 1, "install --wait returned before the essential pack was in place")
            #expect(result.standardOutput.contains("1 of 1 essential asset pack(s)"), "\(result.standardOutput)")
            try await poll(until: { device.installedVersion(of: "Transcripts") == 1 }, "the prefetch pack")
            #expect(device.installedVersion(of: "Slides") == nil, "an on-demand pack waits for the app to ask")
            let asked = (try? String(contentsOf: device.recordsFolder.appending(path: "asked.txt"), encoding: .utf8)) ?? ""
            #expect(asked.contains("Intro 1 yes") && asked.contains("Transcripts 1 yes") && !asked.contains("Slides"), "\(asked)")
            // The trace has each archive's transfer, as a timeline lane, then the pack's end.
            let trace = TraceEntry.entries(in: try Data(contentsOf: device.scenario.deviceRoot.appending(path: "system/trace.jsonl")))
            let intro = trace.filter { $0.download == "asset-pack.Intro.v1" }.map(\.event)
            #expect(intro.first == "downloadDidBegin" && intro.contains("finishedWithFileURL") && intro.last == "assetPackFinished",
                    "\(intro)")
            #expect(trace.contains { $0.event == "shouldDownload(_:)" && $0.detail == "Intro, Transcripts" })
        }
    }

    @Test("An essential pack the server refuses fails the install, which names the pack and the reason")
    func failingEssentialPack() async throws {
        try await withAssetPacks(serverArguments: ["--fail", "/Intro.aar=404"], prepare: Self.standardPacks) { device in
            let result = try await device.install()
            let output = result.standardOutput + result.standardError
            #expect(output.contains("0 of 1 essential asset pack(s)") && output.contains("the asset pack Intro"),
                    "\(output)")
            #expect(output.contains("404"), "\(output)")
            #expect(device.installedVersion(of: "Intro") == nil)
        }
    }

    @Test("Two processes with two callers each ensure an on-demand pack: one download, every caller's updates in order, the right bytes")
    func sharedOnDemandDownload() async throws {
        try await withAssetPacks(serverArguments: ["--throttle", "150000"], prepare: Self.standardPacks) { device in
            _ = try await device.install()
            let first = try device.launchApp(["ensure", "Slides", "--callers", "2"])
            try await poll(until: { first.standardOutput().contains("began Slides") }, "the download to begin")
            let second = try device.launchApp(["ensure", "Slides", "--callers", "2"])
            for process in [first, second] {
                let status = try await process.waitForExit(timeout: .seconds(60))
                #expect(status.isSuccess, "\(process.standardOutput()) \(process.standardError())")
            }
            for (name, process) in [("first", first), ("second", second)] {
                let lines = process.standardOutput().split(separator: "\n").map(String.init)
                #expect(lines.last == "available Slides true", "\(name): \(lines)")
                let callers = ["1", "2"].map { caller in lines.filter { $0.hasPrefix("\(caller) ") }.map { $0.dropFirst(2) } }
                #expect(callers[0] == callers[1], "\(name): both callers see the same updates")
                #expect(callers[0].last == "finished Slides v1", "\(name): \(callers[0])")
                let progress = callers[0].compactMap { line -> Int? in
                    guard line.hasPrefix("downloading") else { return nil }
                    return line.split(separator: " ").last.flatMap { Int($0.split(separator: "/")[0]) }
                }
                #expect(progress == progress.sorted(), "\(name): progress goes forward: \(progress)")
                if name == "first" { #expect(callers[0].first == "began Slides v1", "\(callers[0])") }
            }
            let archiveGets = try device.scenario.accessEntries(for: "/Slides.aar").filter { $0.method == "GET" }
            #expect(archiveGets.count == 1, "one download for four callers in two processes: \(archiveGets)")

            let original = Self.bytes(600_000, seed: 3)
            let out = device.scenario.folder.appending("read.pdf")
            try await device.app(["read", "Slides/wwdc23-10108.pdf", "--pack", "Slides", "--out", out.path])
            #expect(try Data(contentsOf: out) == original, "contents(at:) read the pack's bytes")
            let viaURL = device.scenario.folder.appending("url.txt")
            try await device.app(["url", "Intro/welcome.txt", "--out", viaURL.path])
            #expect(try String(contentsOf: viaURL, encoding: .utf8) == "Welcome to WWDC", "url(for:) found the essential pack's file")
        }
    }

    @Test("A pack whose archive was changed on the server is refused, and nothing of it is installed")
    func tamperedArchive() async throws {
        try await withAssetPacks(prepare: Self.standardPacks) { device in
            _ = try await device.install()
            let archive = device.packs.appending(path: "Slides.aar")
            var bytes = try Data(contentsOf: archive)
            bytes[bytes.count / 2] ^= 0x5A
            try bytes.write(to: archive)
            let lines = try await device.app(["ensure", "Slides"], expectSuccess: false)
            #expect(lines.contains { $0.hasPrefix("1 failed Slides v1") }, "\(lines)")
            #expect(lines.last?.contains("refused and nothing of it was installed") == true, "\(lines)")
            #expect(device.installedVersion(of: "Slides") == nil)
            #expect(!FileManager.default.fileExists(atPath: device.packsFolder.appending(path: "Slides").path))
        }
    }

    @Test("An app whose extension adopts only BADownloaderExtension is refused by the manager, which names the extension")
    func notManagedExtension() async throws {
        try await withAssetPacks(prepare: Self.standardPacks) { device in
            let result = try await device.install(extensionExecutable: "lifecycle-test-extension")
            #expect(result.standardOutput.contains("LifecycleTestExtension adopts BADownloaderExtension rather than "
                + "ManagedDownloaderExtension"), "\(result.standardOutput)")
            let lines = try await device.app(["manifest"], expectSuccess: false)
            #expect(lines.last?.contains("its downloader extension LifecycleTestExtension adopts BADownloaderExtension") == true,
                    "\(lines)")
        }
    }
}
