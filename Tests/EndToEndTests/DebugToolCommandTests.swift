/*
Abstract:
End-to-end: the debug tool's contract: status output, reset, starting the service on demand, usage errors.
*/

import Foundation
import Testing
import TestSupport

@Suite("Inspect and reset the service with backgroundassets-debug", .serialized, .timeLimit(.minutes(2)))
struct DebugToolCommandTests {
    @Test("status --json parses and lists every download; plain status prints one line each")
    func statusListsDownloads() async throws {
        let scenario = try Scenario()
        let port = try FreePort.allocate()
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
            // Two background downloads that wait for a server that is not there, so they stay queued.
            for name in ["one", "two"] {
                let tool = try scenario.launchTool([
                    "download", "http://127.0.0.1:\(port)/\(name).mp4",
                    "--output", scenario.outputFolder.appendingPathComponent(name).path, "--size", "1000",
                ])
                try await tool.runScoped { _ in
                    try await poll(until: { try await statusDownloads(scenario).count >= (name == "one" ? 1 : 2) },
                                   timeout: .seconds(20), "the download \(name) to be queued")
                }
            }
            let downloads = try await statusDownloads(scenario)
            #expect(downloads.count == 2)
            for download in downloads {
                #expect(download["bundleIdentifier"] as? String == "com.example.backgroundassets-debug")
                #expect(download["bytesExpected"] as? Int == 1000)
                #expect(download["isForeground"] as? Bool == false)
            }
            let plain = try await scenario.runTool(["status"])
            let lines = plain.standardOutput.split(separator: "\n")
            #expect(lines.count == 3, "\(plain.standardOutput)")
            #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("app=com.example.backgroundassets-debug id=download-") })
        }
    }

    @Test("reset --yes stops the service and leaves an empty queue")
    func resetEmptiesQueue() async throws {
        let scenario = try Scenario()
        let port = try FreePort.allocate()
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { service in
            let tool = try scenario.launchTool([
                "download", "http://127.0.0.1:\(port)/queued.mp4", "--output", scenario.outputFolder.appendingPathComponent("q").path,
            ])
            try await tool.runScoped { _ in
                try await poll(until: { try await !statusDownloads(scenario).isEmpty }, timeout: .seconds(20), "a queued download")
            }
            let refused = try await scenario.runTool(["reset"])
            #expect(refused.status == .exited(64), "reset without --yes and without a terminal must refuse")
            #expect(refused.standardError.contains("--yes"))
            #expect(service.process.isRunning)

            let reset = try await scenario.runTool(["reset", "--yes"])
            #expect(reset.status == .exited(0), "\(reset.standardError)")
            #expect(try await service.process.waitForExit(timeout: .seconds(10)) == .exited(0))
            let queue = scenario.deviceRoot.appendingPathComponent("system/queue.sqlite")
            #expect(!FileManager.default.fileExists(atPath: queue.path))
            // status starts a fresh service on demand, which finds nothing queued.
            #expect(try await statusDownloads(scenario).isEmpty)
        }
    }

    @Test("The tool starts the service on demand when nothing listens")
    func startsServiceOnDemand() async throws {
        let scenario = try Scenario()
        try ServiceProcess.writeConfiguration(quickConfiguration, in: scenario.deviceRoot)
        let result: CommandResult
        do {
            result = try await scenario.runTool(["status"])
        } catch {
            await ServiceProcess.killAll(in: scenario.deviceRoot)
            throw error
        }
        // The service the tool started is not the test's child; stop it through its pid file.
        await ServiceProcess.killAll(in: scenario.deviceRoot)
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardOutput.contains("device root \(scenario.deviceRoot.path)"))
    }

    @Test("Usage mistakes exit with 64 and say what was wrong")
    func usageErrors() async throws {
        let scenario = try Scenario()
        let cases: [([String], String)] = [
            ([], "Usage: backgroundassets-debug"),
            (["frobnicate"], "unknown subcommand"),
            (["download", "http://127.0.0.1:1/x"], "--output"),
            (["download", "ftp://example.com/x", "--output", "/tmp/x"], "scheme ftp"),
            (["download", "http://127.0.0.1:1/x", "--output", "/tmp/x", "--size", "-3"], "--size"),
            (["status", "--bogus"], "--bogus"),
            (["cancel"], "ID"),
        ]
        for (arguments, message) in cases {
            let result = try await scenario.runTool(arguments)
            #expect(result.status == .exited(64), "\(arguments)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
        let help = try await scenario.runTool(["--help"])
        #expect(help.status == .exited(0))
        #expect(help.standardOutput.contains("Exit codes"))
    }
}
