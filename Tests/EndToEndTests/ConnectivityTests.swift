/*
Abstract:
End-to-end: with nothing listening, a foreground download fails fast while a background one waits.
*/

import Foundation
import Testing
import TestSupport

@Suite("Download while the server is down", .serialized, .timeLimit(.minutes(2)))
struct ConnectivityTests {
    @Test("A foreground download fails after foregroundWait when nothing listens")
    func foregroundFailsFast() async throws {
        let scenario = try Scenario()
        let nobody = try RefusingPort()
        // Held to the end of the test, so no other test's server takes the port meanwhile.
        defer { withExtendedLifetime(nobody) {} }
        let url = "http://127.0.0.1:\(nobody.port)/sessions/missing.mp4"
        var configuration = quickConfiguration
        configuration["foregroundWait"] = 1
        try await withService(deviceRoot: scenario.deviceRoot, configuration: configuration) { _ in
            let output = scenario.outputFolder.appendingPathComponent("offline.mp4")
            let started = ContinuousClock.now
            let result = try await scenario.runTool(["download", url, "--output", output.path, "--foreground"])
            #expect(result.status == .exited(1))
            // It waits out foregroundWait; the rule itself is checked on a manual clock (BoundedWaitTests).
            #expect(ContinuousClock.now - started >= .seconds(1), "it waits out foregroundWait")
            #expect(result.standardError.contains("failed"), "\(result.standardError)")
            #expect(result.standardError.contains("no progress"), "\(result.standardError)")
        }
    }

    @Test("A foreground download against a server answering 503 for ever fails after foregroundWait")
    func foregroundFailsAgainst503() async throws {
        let scenario = try Scenario()
        let arguments = ["--fail", "/sessions/unavailable.mp4=503", "--access-log", scenario.accessLog.path]
        try await withAssetServer(sessionSize: 4096, arguments: arguments) { server in
            var configuration = quickConfiguration
            configuration["foregroundWait"] = 1
            try await withService(deviceRoot: scenario.deviceRoot, configuration: configuration) { _ in
                let output = scenario.outputFolder.appendingPathComponent("unavailable.mp4")
                let url = server.url("/sessions/unavailable.mp4").absoluteString
                let result = try await scenario.runTool(["download", url, "--output", output.path, "--foreground"])
                // Ending at all is the bound: a download that kept retrying would outlast the tool's time limit.
                #expect(result.status == .exited(1))
                #expect(result.standardError.contains("503"), "\(result.standardError)")
            }
        }
    }

    @Test("A background download waits for the server, status shows it waiting, and cancel removes it")
    func backgroundWaits() async throws {
        let scenario = try Scenario()
        let nobody = try RefusingPort()
        // Held to the end of the test, so no other test's server takes the port meanwhile.
        defer { withExtendedLifetime(nobody) {} }
        let url = "http://127.0.0.1:\(nobody.port)/sessions/later.mp4"
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
            let output = scenario.outputFolder.appendingPathComponent("later.mp4")
            let tool = try scenario.launchTool(["download", url, "--output", output.path])
            let identifier = try await tool.runScoped { tool in
                // Waiting with an error recorded, and without spending attempts: it keeps probing.
                let waiting = try await poll(interval: .milliseconds(100), "a waiting download") {
                    try await statusDownloads(scenario).first { download in
                        let descriptor = download["download"] as? [String: Any]
                        return descriptor?["state"] as? Int == 1 && download["lastError"] != nil
                    }
                }
                #expect(tool.isRunning)
                // Ctrl-C leaves the download in the service and says how to resume or cancel it.
                try tool.signal(SIGINT)
                #expect(try await tool.waitForExit() == .exited(130))
                #expect(tool.standardError().contains("Run the same command again"))
                return try #require((waiting["download"] as? [String: Any])?["identifier"] as? String)
            }
            #expect(try await statusDownloads(scenario).count == 1)
            let cancelled = try await scenario.runTool(["cancel", identifier])
            #expect(cancelled.status == .exited(0), "\(cancelled.standardError)")
            #expect(try await statusDownloads(scenario).isEmpty)
        }
    }
}
