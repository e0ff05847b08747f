/*
Abstract:
Unit tests of how `packs` and `status` show each app's managed asset packs.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Show each app's asset packs")
struct PackFormatterTests {
    static let app = AppStatus(
        bundleIdentifier: "com.example.WWDC-Sessions", version: "1", appGroup: "group.com.example.WWDC-Sessions",
        state: .launchable, progress: InstallProgress(phase: .complete, completedBytes: 1, totalBytes: 1), hasLaunched: true,
        runtimeBudgetLeft: 600, assetPacks: [
            AssetPackStatus(packID: "SessionResources", installedVersion: 1, downloadingVersion: nil,
                            downloadPolicy: "essential (firstInstallation, subsequentUpdate)", state: "installed", sizeOnDisk: 28_672),
            AssetPackStatus(packID: "Slides-WWDC23", installedVersion: 1, downloadingVersion: 2, downloadPolicy: "onDemand",
                            state: "updating", sizeOnDisk: 593_920, completedBytes: 250, totalBytes: 1000),
            AssetPackStatus(packID: "Transcripts", installedVersion: nil, downloadingVersion: 1,
                            downloadPolicy: "prefetch (firstInstallation)", state: "queued"),
        ])

    @Test("One line per pack: version, policy, state with the version on its way and its progress, size on disk")
    func lines() {
        #expect(PackFormatter(apps: [Self.app]).lines() == [
            "com.example.WWDC-Sessions SessionResources version=1 policy=essential(firstInstallation,subsequentUpdate) state=installed size=28.0KiB",
            "com.example.WWDC-Sessions Slides-WWDC23 version=1 policy=onDemand state=updating-v2-25% size=580.0KiB",
            "com.example.WWDC-Sessions Transcripts version=- policy=prefetch(firstInstallation) state=queued-v1 size=-",
        ])
    }

    @Test("status shows a section of packs only when an app has some")
    func section() {
        #expect(PackFormatter(apps: [Self.app]).section()?.hasPrefix("Asset packs:\n  com.example.WWDC-Sessions SessionResources") == true)
        var none = Self.app
        none.assetPacks = nil
        #expect(PackFormatter(apps: [none]).section() == nil)
    }

    @Test("packs takes --json and -b, and refuses anything else")
    func parsing() throws {
        let command = try PacksCommand.parsing(["--json", "-b", "com.example.WWDC-Sessions"])
        #expect(command.json && command.bundleIdentifier == "com.example.WWDC-Sessions")
        #expect(throws: DebugToolError.self) { try PacksCommand.parsing(["--bytes"]) }
    }

    @Test("purge reads --asset-pack-bytes as a number of bytes and refuses anything else")
    func purgeBytes() throws {
        #expect(try PurgeCommand.parsing(["-b", "com.example.WWDC-Sessions", "--asset-pack-bytes", "1048576"]).assetPackBytes == 1_048_576)
        #expect(try PurgeCommand.parsing([]).assetPackBytes == nil)
        for wrong in ["-1", "1MiB", ""] {
            #expect(throws: DebugToolError.self) { try PurgeCommand.parsing(["--asset-pack-bytes", wrong]) }
        }
    }
}
