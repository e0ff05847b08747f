/*
Abstract:
End-to-end: several runs of `download` following the same download each end with the file in place.
*/

import Foundation
import Testing
import TestSupport

@Suite("Follow one download from several runs", .serialized, .timeLimit(.minutes(2)))
struct SharedDownloadTests {
    @Test("A second run of the same command follows the first's download; both end with the file, fetched once")
    func twoRunsOneDownload() async throws {
        let scenario = try Scenario()
        // The second run must start while the first still downloads, and on a loaded machine
        // starting a process alone can take seconds: the relay holds the second half of the file
        // until the second run follows the download. However long that takes, the transfer waits
        // on the same connection: a retry would fetch some bytes twice.
        let configuration = quickConfiguration.merging(["stallTimeout": 600, "foregroundWait": 0]) { $1 }
        try await withAssetServer(
            sessions: 1, sessionSize: 1_048_576, arguments: ["--access-log", scenario.accessLog.path]
        ) { server in
            let relay = try HoldingRelay(to: server.port, holdingAfter: 524_288)
            defer { relay.stop() }
            try await withService(deviceRoot: scenario.deviceRoot, configuration: configuration) { _ in
                let file = try CatalogFile.all(in: server.catalogURL)[0]
                let url = relay.url(file.path).absoluteString
                let output = scenario.outputFolder.appendingPathComponent("shared.mp4")
                let arguments = ["download", url, "--output", output.path]
                let first = try scenario.launchTool(arguments)
                _ = try await poll("the first run to start the download") {
                    first.standardError().contains("Started download-") ? true : nil
                }
                let second = try scenario.launchTool(arguments)
                _ = try await poll("the second run to follow the first's download") {
                    second.standardError().contains("from an earlier run") ? true : nil
                }
                #expect(first.isRunning, "the second run followed a download still under way")
                relay.release()
                let statuses = try await (first.waitForExit(timeout: .seconds(60)), second.waitForExit(timeout: .seconds(60)))
                #expect(statuses.0 == .exited(0), "\(first.diagnostics())")
                #expect(statuses.1 == .exited(0), "\(second.diagnostics())")
                #expect(second.standardError().contains("from an earlier run"), "\(second.diagnostics())")
                for run in [first, second] {
                    #expect(run.standardError().contains("Downloaded \(url) to \(output.path)"))
                }
                #expect(try await sha256(of: output) == file.sha256)
                let served = try scenario.accessEntries(for: file.path).map(\.bytes).reduce(0, +)
                #expect(served == Int64(file.size), "the file was fetched once")
                // The handed-over name is gone once both runs took the file; only the output is left.
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: scenario.outputFolder.path)
                #expect(leftovers == ["shared.mp4"])
            }
        }
    }

    @Test("A file handed over just before the service died is handed over again by the next one, not fetched again")
    func handOverSurvivesKill() async throws {
        let scenario = try Scenario()
        let root = scenario.deviceRoot
        // The server is stopped until the tool is frozen, which a busy machine can take longer than
        // the stall timeout to reach: a reconnect then had the server answer the abandoned request
        // too, and bytes were counted twice.
        try ServiceProcess.writeConfiguration(quickConfiguration.merging(["stallTimeout": 600]) { $1 }, in: root)
        try await withAssetServer(
            sessions: 1, sessionSize: 524_288, arguments: ["--throttle", "262144", "--access-log", scenario.accessLog.path]
        ) { server in
            do {
                try await Self.handOverAfterKill(scenario, server)
            } catch {
                await ServiceProcess.killAll(in: root)
                throw error
            }
            await ServiceProcess.killAll(in: root)
        }
    }

    static func handOverAfterKill(_ scenario: Scenario, _ server: AssetServerProcess) async throws {
        let root = scenario.deviceRoot
        let file = try CatalogFile.all(in: server.catalogURL)[0]
        let output = scenario.outputFolder.appendingPathComponent("handed-over.mp4")
        let arguments = ["download", server.url(file.path).absoluteString, "--output", output.path]
        // The first run starts the service and the download, then freezes: the file is handed
        // over to a delegate that never takes it, and the service dies before anyone does. The
        // server sends nothing until the tool is frozen, so the download cannot end first, however
        // slow the machine.
        try server.process.signal(SIGSTOP)
        defer { try? server.process.signal(SIGCONT) }
        let frozen = try scenario.launchTool(arguments)
        try await frozen.runScoped { frozen in
            _ = try await poll("the download to start") {
                frozen.standardError().contains("Started download-") ? true : nil
            }
            try frozen.signal(SIGSTOP)
            try server.process.signal(SIGCONT)
            let handOver = root.appendingPathComponent(
                "containers/group.com.example.backgroundassets-debug/Library/Caches/com.apple.BackgroundAssets")
            _ = try await poll("the finished file in the hand-over folder") {
                ((try? FileManager.default.contentsOfDirectory(atPath: handOver.path)) ?? []).isEmpty ? nil : true
            }
            let pid = try #require(SampleTests.ChaosTests.servicePID(root))
            kill(pid, SIGKILL)
            try await poll(until: { SampleTests.ChaosTests.servicePID(root) != pid && hasExitedEveryThread(pid) },
                           "the service to end")
            try frozen.signal(SIGKILL)
            _ = try await frozen.waitForExit()
        }

        let again = try await scenario.runTool(arguments)
        #expect(again.status == .exited(0), "\(again.standardError)")
        #expect(again.standardError.contains("from an earlier run"), "\(again.standardError)")
        #expect(try await sha256(of: output) == file.sha256)
        let served = try scenario.accessEntries(for: file.path).map(\.bytes).reduce(0, +)
        #expect(served == Int64(file.size), "the file was fetched once")
        let log = try String(contentsOf: root.appending(path: "system/log"), encoding: .utf8)
        #expect(log.contains("again: the service stopped before its file was taken"))
    }
}
