/*
Abstract:
End-to-end: asset-pack updates through the periodic check, storage pressure, removal, and kill -9 of the service.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Asset packs over time, with the real processes", .serialized, .timeLimit(.minutes(4)))
struct AssetPackLifecycleTests {
    static let one = AssetPackInstallTests.bytes(300_000, seed: 11)
    static let two = AssetPackInstallTests.bytes(300_000, seed: 12)

    static func packs(_ packs: URL, _ folder: URL) async throws {
        try await AssetPackScenario.package("Intro", policy: AssetPackScenario.essential,
                                            files: ["Intro/welcome.txt": Data("Welcome".utf8)], into: packs, in: folder)
        try await AssetPackScenario.package("Transcripts", policy: AssetPackScenario.prefetch,
                                            files: ["Transcripts/t.txt": AssetPackInstallTests.bytes(10_000, seed: 13)], into: packs, in: folder)
        try await AssetPackScenario.package("Slides", policy: AssetPackScenario.onDemand,
                                            files: ["Slides/s.pdf": one], into: packs, in: folder)
    }

    /// Publishes Slides version 2 beside the others.
    static func publishSlidesTwo(_ device: AssetPackScenario) async throws {
        try await AssetPackScenario.package("Slides", version: 2, policy: AssetPackScenario.onDemand,
                                            files: ["Slides/s.pdf": two], into: device.packs, in: device.scenario.folder.url)
        try await AssetPackScenario.publish(device.packs)
    }

    /// What a reader of Slides sees now: its version and whether its file is that version's, whole.
    static func readSlides(_ device: AssetPackScenario) -> (version: Int?, whole: Bool) {
        let version = device.installedVersion(of: "Slides")
        guard let version else { return (nil, true) }
        let bytes = try? Data(contentsOf: device.installedFile("Slides", "Slides/s.pdf"))
        return (version, bytes == (version == 1 ? one : two))
    }

    @Test("A new version arrives through the periodic check, and the old one stays readable, whole, until it is complete")
    func periodicUpdate() async throws {
        try await withAssetPacks(prepare: Self.packs) { device in
            _ = try await device.install()
            try await device.app(["ensure", "Slides"])
            // Version 2's archive comes from a server of its own, held still from before the check
            // until the test has looked: the update cannot end first, however slow the machine.
            try await AssetPackScenario.package("Slides", version: 2, policy: AssetPackScenario.onDemand,
                                                files: ["Slides/s.pdf": Self.two], into: device.packs, in: device.scenario.folder.url)
            let archives = device.scenario.folder.appending("archives")
            try FileManager.default.createDirectory(at: archives, withIntermediateDirectories: true)
            // A manifest with a base URL names each archive by its pack's identifier.
            try FileManager.default.copyItem(at: device.packs.appending(path: "Slides.aar"), to: archives.appending(path: "Slides"))
            try await withAssetServer(catalogURL: archives, arguments: ["--throttle", "100000"]) { archiveServer in
                try await AssetPackScenario.publish(device.packs, downloadBaseURL: archiveServer.baseURL)
                try archiveServer.process.signal(SIGSTOP)
                defer { try? archiveServer.process.signal(SIGCONT) }
                _ = try await device.scenario.runTool(["simulate", "--periodic-check", "-b", AssetPackScenario.app])
                let updating = try await poll("the update's download to begin") { () async throws -> String? in
                    let line = try await Self.slidesLine(device)
                    return line.contains("state=updating-v2") ? line : nil
                }
                #expect(updating.contains("version=1"), "\(updating)")
                #expect(Self.readSlides(device) == (1, true), "version 1 is current and whole while version 2 downloads")

                try archiveServer.process.signal(SIGCONT)
                _ = try await poll(interval: .milliseconds(20), "version 2 of Slides") { () -> Bool? in
                    let seen = Self.readSlides(device)
                    #expect(seen.whole, "a reader saw Slides version \(seen.version ?? -1) not whole")
                    return seen.version == 2 ? true : nil
                }
            }
            #expect(Self.readSlides(device) == (2, true))
        }
    }

    /// Slides' line in `packs`: the version on the device and the state, such as `state=updating-v2-0%`.
    static func slidesLine(_ device: AssetPackScenario) async throws -> String {
        let packs = try await device.scenario.runTool(["packs", "-b", AssetPackScenario.app])
        return packs.standardOutput.split(separator: "\n").first { $0.contains(" Slides ") }.map(String.init) ?? ""
    }

    @Test("Storage pressure removes on-demand packs first and never an essential one; removing a pack frees its space")
    func purgeAndRemove() async throws {
        try await withAssetPacks(prepare: Self.packs) { device in
            _ = try await device.install()
            try await poll(until: { device.installedVersion(of: "Transcripts") == 1 }, "the prefetch pack")
            try await device.app(["ensure", "Slides"])
            let first = try await device.scenario.runTool(["purge", "-b", AssetPackScenario.app, "--asset-pack-bytes", "1"])
            #expect(first.standardOutput.contains("Removed the asset pack Slides"), "\(first.standardOutput)")
            #expect(!first.standardOutput.contains("Transcripts"), "an on-demand pack goes first: \(first.standardOutput)")
            #expect(device.installedVersion(of: "Slides") == nil && device.installedVersion(of: "Transcripts") == 1)
            let all = try await device.scenario.runTool(["purge", "-b", AssetPackScenario.app])
            #expect(all.standardOutput.contains("Removed the asset pack Transcripts"), "\(all.standardOutput)")
            #expect(device.installedVersion(of: "Intro") == 1, "an essential pack is never purged")

            try await device.app(["ensure", "Slides"])
            let slidesFolder = device.packsFolder.appending(path: "Slides")
            #expect(FileManager.default.fileExists(atPath: slidesFolder.path))
            let lines = try await device.app(["remove", "Slides"])
            #expect(lines == ["removed Slides"])
            #expect(!FileManager.default.fileExists(atPath: slidesFolder.path), "the pack's files are deleted")
            let packs = try await device.scenario.runTool(["packs", "-b", AssetPackScenario.app])
            #expect(packs.standardOutput.contains("Intro") && !packs.standardOutput.contains("Slides"), "\(packs.standardOutput)")
        }
    }

    @Test("kill -9 of the service in the middle of an update's download leaves version 1 whole, and the restarted service installs version 2")
    func killMidDownload() async throws {
        try await withAssetPacks(serverArguments: ["--throttle", "100000"], prepare: Self.packs) { device in
            _ = try await device.install()
            try await device.app(["ensure", "Slides"])
            try await Self.publishSlidesTwo(device)
            let app = try device.launchApp(["ensure", "Slides", "--latest"])
            try await poll(until: { app.standardOutput().contains("downloading Slides v2") }, "the update's download")
            try await device.scenario.service.kill()
            #expect(Self.readSlides(device) == (1, true), "after the kill, version 1 is current and whole")
            // The app reconnects at once, starting the service, which resumes the download.
            let status = try await app.waitForExit(timeout: .seconds(60))
            #expect(status.isSuccess, "\(app.standardOutput()) \(app.standardError())")
            #expect(app.standardOutput().contains("1 finished Slides v2"), "\(app.standardOutput())")
            #expect(Self.readSlides(device) == (2, true))
        }
    }

    /// Publishes version 2 of a pack of 1,500 files, asks the app for it, and calls `body` once its
    /// unpack started, with the app still waiting. The unpack opens and syncs each file again (the
    /// arrival's checkpoints synced their bytes already, so it is quicker than when it wrote them
    /// out), which still lasts long enough to be caught in the middle.
    private func duringUnpackOfAnUpdate(_ body: @escaping (AssetPackScenario, ChildProcess) async throws -> Void) async throws {
        let many = Dictionary(uniqueKeysWithValues: (0..<1500).map { ("Atlas/tile-\($0).bin", Data("tile \($0) v".utf8)) })
        try await withAssetPacks(prepare: { packs, folder in
            try await AssetPackScenario.package("Atlas", policy: AssetPackScenario.onDemand,
                                                files: many.mapValues { $0 + Data("1".utf8) }, into: packs, in: folder)
        }) { device in
            _ = try await device.install()
            try await device.app(["ensure", "Atlas"])
            try await AssetPackScenario.package("Atlas", version: 2, policy: AssetPackScenario.onDemand,
                                                files: many.mapValues { $0 + Data("2".utf8) }, into: device.packs, in: device.scenario.folder.url)
            try await AssetPackScenario.publish(device.packs)
            let app = try device.launchApp(["ensure", "Atlas", "--latest"])
            // The files were written as the archive arrived; its unpack syncs them one by one.
            _ = try await poll(timeout: .seconds(60), interval: .milliseconds(1), "the unpack to start") { () -> Bool? in
                device.finishedArchives().isEmpty ? nil : true
            }
            try await body(device, app)
        }
    }

    @Test("kill -9 of the service in the middle of unpacking leaves the old version whole, and the restarted service installs the new one")
    func killMidUnpack() async throws {
        try await duringUnpackOfAnUpdate { device, app in
            try await device.scenario.service.kill()
            #expect(device.installedVersion(of: "Atlas") == 1, "version 1 stays current")
            let sample = try Data(contentsOf: device.installedFile("Atlas", "Atlas/tile-1499.bin"))
            #expect(sample == Data("tile 1499 v1".utf8), "and whole")
            let status = try await app.waitForExit(timeout: .seconds(90))
            #expect(status.isSuccess, "\(app.standardOutput()) \(app.standardError())")
            #expect(device.installedVersion(of: "Atlas") == 2)
            #expect(try Data(contentsOf: device.installedFile("Atlas", "Atlas/tile-0.bin")) == Data("tile 0 v2".utf8))
        }
    }

    @Test("An archive that finished before the service restarted is unpacked from the files kept as it arrived, not fetched again")
    func archiveUnpackedAfterRestart() async throws {
        try await duringUnpackOfAnUpdate { device, app in
            try app.signal(SIGKILL)
            try await device.scenario.service.kill()
            // The archive keeps its header and trailer only: its files were written into .staging/
            // as they arrived, and the arrival's state saved at the end of the body names them.
            #expect(!device.finishedArchives().isEmpty, "the finished archive waits in the hand-over folder")

            let lines = try await device.app(["ensure", "Atlas", "--latest"])
            #expect(lines.contains { $0.contains("finished Atlas v2") }, "\(lines)")
            #expect(device.installedVersion(of: "Atlas") == 2)
            #expect(try Data(contentsOf: device.installedFile("Atlas", "Atlas/tile-0.bin")) == Data("tile 0 v2".utf8))
            let trace = try String(contentsOf: device.scenario.deviceRoot.appending(path: "system/trace.jsonl"), encoding: .utf8)
            #expect(!trace.contains("assetPackFetchedAgain"), "the kept files were unpacked")
            let gets = try device.scenario.accessEntries(for: "/Atlas.aar").filter { $0.method == "GET" }
            #expect(gets.count == 2, "each version's archive was fetched once: \(gets)")
        }
    }

    @Test("kill -9 of the service before the extension answers withdraws the pack downloaded ahead of the answer, and the restarted service ends the install without it")
    func killBeforeTheAnswer() async throws {
        try await withAssetPacks(prepare: { packs, folder in
            try await AssetPackScenario.package("Intro", policy: AssetPackScenario.essential,
                                                files: ["Intro/big.bin": AssetPackInstallTests.bytes(300_000, seed: 14)], into: packs, in: folder)
        }) { device in
            // The extension answers only once released, which never happens here.
            try FileManager.default.createDirectory(at: device.recordsFolder, withIntermediateDirectories: true)
            try Data().write(to: device.recordsFolder.appending(path: "hold-answer"))
            _ = try await device.install(waits: false)
            let trace = device.scenario.deviceRoot.appending(path: "system/trace.jsonl")
            let traced = { (text: String) in ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").contains(text) }
            try await poll(until: { traced(#""event":"finishedWithFileURL""#) }, "the archive to arrive before the answer")
            try await device.scenario.service.kill()

            // The next client starts the service again, which finds the install's answer never came.
            _ = try await device.scenario.runTool(["status"])
            try await poll(until: { traced("with no essential download left") }, "the restarted service to end the install")
            #expect(device.installedVersion(of: "Intro") == nil)
            #expect(!traced("assetPackFinished"), "the pack was never installed")
            let rows = try await statusDownloads(device.scenario)
            #expect(!rows.contains { (($0["download"] as? [String: Any])?["identifier"] as? String)?.hasPrefix("asset-pack.") == true }, "\(rows)")
            let left = [device.container, device.scenario.deviceRoot.appending(path: "staging")].flatMap { largeFiles(under: $0, atLeast: 100_000) }
            #expect(left.isEmpty, "nothing of the archive is left: \(left)")
        }
    }
}
