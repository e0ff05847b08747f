/*
Abstract:
Tests the essential packs an install downloads while its extension is asked about them: kept when it accepts, withdrawn when it declines.
*/

import AssetPackFormat
@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Asset packs downloaded before the extension's answer", .serialized, .timeLimit(.minutes(3)))
struct AssetPackAnswerTests {
    @Test("An install downloads its essential packs while the extension is asked; one it declines is cancelled and deleted, one it accepts is installed")
    func declinedPackIsWithdrawn() async throws {
        let catalog = try PackCatalog()
        try catalog.add("Intro", policy: PackCatalog.essential, files: ["Intro/welcome.txt": "Welcome"])
        try catalog.add("Extras", policy: PackCatalog.essential, files: ["Extras/big.bin": String(repeating: "x", count: 300_000)])
        try catalog.publish()
        try await withAssetServer(catalogURL: catalog.folder) { server in
            let device = try await InProcessService()
            let container = try #require(device.paths.container(forAppGroup: "group." + AssetPackServiceTests.app))
            let shared = container.appending(path: "Library/Application Support/asset-pack-test", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
            try Data("Extras\n".utf8).write(to: shared.appending(path: "decline.txt"))
            try Data().write(to: shared.appending(path: "hold-answer"))
            let layout = AssetPackServiceTests.layout(device)
            let status = try await AssetPackServiceTests.install(on: device, server: server) {
                // Both archives arrive whole while the extension holds its answer back.
                for pack in ["Intro", "Extras"] {
                    try await device.waitForTrace("\(pack)'s archive downloaded") {
                        $0.event == "finishedWithFileURL" && $0.download == "asset-pack.\(pack).v1"
                    }
                }
                #expect(layout.installedVersion(of: "Intro") == nil, "nothing is installed before the answer")
                try Data().write(to: shared.appending(path: "release-answer"))
            }
            #expect(layout.installedVersion(of: "Intro") == 1, "the accepted pack, arrived first, is installed once accepted")
            #expect(status.installSummary?.contains("1 of 1 essential asset pack(s)") == true, "\(status.installSummary ?? "")")
            let asked = try String(contentsOf: shared.appending(path: "asked.txt"), encoding: .utf8)
            #expect(asked.contains("Intro 1 yes") && asked.contains("Extras 1 no"), "\(asked)")

            #expect(layout.installedVersion(of: "Extras") == nil)
            #expect(!FileManager.default.fileExists(atPath: layout.packDirectory("Extras").path))
            let trace = device.trace
            #expect(trace.contains { $0.event == "assetPackWithdrawn" && $0.download == "asset-pack.Extras.v1" })
            #expect(!trace.contains { $0.event.hasPrefix("assetPack") && $0.event != "assetPackWithdrawn" && $0.download == "asset-pack.Extras.v1" },
                    "the declined pack has no pack event")
            let tool = try await device.client("com.example.backgroundassets-debug", role: .tool)
            guard case let .status(after) = try await tool.ask(.core(.fetchStatus)) else { throw TestSupportError("no status") }
            #expect(!after.downloads.contains { $0.download.identifier == "asset-pack.Extras.v1" }, "its queue row is gone")
            // Nothing of its 300 KB is left where downloads and packs are kept: not the archive, not
            // the files written as it arrived.
            let left = [container, device.paths.stagingDirectory].flatMap { largeFiles(under: $0, atLeast: 100_000) }
            #expect(left.isEmpty, "\(left)")
            await device.stop()
        }
    }

    @Test("An extension that cannot be called (its daily budget is spent) has the packs queued ahead of its answer withdrawn, and the install ends without them")
    func noCallWithdrawsEveryPack() async throws {
        let catalog = try PackCatalog()
        try catalog.add("Extras", policy: PackCatalog.essential, files: ["Extras/big.bin": String(repeating: "x", count: 300_000)])
        try catalog.publish()
        try await withAssetServer(catalogURL: catalog.folder) { server in
            let device = try await InProcessService { $0.extensionDailyBudget = 0 }
            let status = try await AssetPackServiceTests.install(on: device, server: server)
            let layout = AssetPackServiceTests.layout(device)
            #expect(layout.installedVersion(of: "Extras") == nil, "\(status.installSummary ?? "")")
            try await device.waitForTrace("the pack withdrawn") { $0.event == "assetPackWithdrawn" && $0.download == "asset-pack.Extras.v1" }
            let tool = try await device.client("com.example.backgroundassets-debug", role: .tool)
            guard case let .status(after) = try await tool.ask(.core(.fetchStatus)) else { throw TestSupportError("no status") }
            #expect(!after.downloads.contains { $0.download.identifier == "asset-pack.Extras.v1" }, "no row waits for an answer that never comes")
            let container = try #require(device.paths.container(forAppGroup: "group." + AssetPackServiceTests.app))
            let left = [container, device.paths.stagingDirectory].flatMap { largeFiles(under: $0, atLeast: 100_000) }
            #expect(left.isEmpty, "\(left)")
            await device.stop()
        }
    }
}
