/*
Abstract:
End-to-end: the debug tool's contract: status output, reset, starting the service on demand, usage errors.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Inspect and reset the service with backgroundassets-debug", .serialized, .timeLimit(.minutes(2)))
struct DebugToolCommandTests {
    @Test("status --json parses and lists every download; plain status prints one line each")
    func statusListsDownloads() async throws {
        let scenario = try Scenario()
        let nobody = try RefusingPort()
        // Held to the end of the test, so no other test's server takes the port meanwhile.
        defer { withExtendedLifetime(nobody) {} }
        let port = nobody.port
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
            // Two background downloads that wait for a server that is not there, so they stay queued.
            for name in ["one", "two"] {
                let tool = try scenario.launchTool([
                    "download", "http://127.0.0.1:\(port)/\(name).mp4",
                    "--output", scenario.outputFolder.appendingPathComponent(name).path, "--size", "1000",
                ])
                try await tool.runScoped { _ in
                    try await poll(until: { try await statusDownloads(scenario).count >= (name == "one" ? 1 : 2) },
                                   "the download \(name) to be queued")
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
            // The service's line, the settings' line, then one line per app (none here) and per download.
            #expect(lines.count == 4, "\(plain.standardOutput)")
            #expect(lines[1].hasPrefix("settings low-power="))
            #expect(lines.dropFirst(2).allSatisfy { $0.hasPrefix("app=com.example.backgroundassets-debug id=download-") })
        }
    }

    @Test("status --json prints 2,500 downloads from three pages, each once, oldest first, as one JSON document")
    func statusJSONAcrossPages() async throws {
        let scenario = try Scenario()
        let nobody = try RefusingPort()
        defer { withExtendedLifetime(nobody) {} }
        let port = nobody.port
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
            let app = try RawServiceClient(deviceRoot: scenario.deviceRoot, bundleIdentifier: "com.example.status-pages")
            defer { app.close() }
            let identifiers = (0..<2_500).map { "page-\($0)" }
            let answers = try app.pipeline(identifiers.map { identifier in
                .downloads(.schedule(download: DownloadDescriptor(
                    identifier: identifier, uniqueIdentifier: UUID().uuidString, url: "http://127.0.0.1:\(port)/\(identifier)",
                    applicationGroupIdentifier: "group.com.example.status-pages")))
            })
            #expect(answers.allSatisfy { if case .download = $0 { true } else { false } })
            let result = try await scenario.runTool(["status", "--json"])
            #expect(result.status.isSuccess, "\(result.standardError)")
            let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
            let downloads = object?["downloads"] as? [[String: Any]] ?? []
            let listed = downloads.compactMap { ($0["download"] as? [String: Any])?["identifier"] as? String }
            #expect(listed == identifiers)
            #expect(object?["moreDownloadsAfter"] == nil, "the cursor is not printed")
            #expect(object?["apps"] != nil && object?["settings"] != nil, "the rest of the status follows the downloads")
        }
    }

    @Test("reset --yes stops the service and leaves an empty queue")
    func resetEmptiesQueue() async throws {
        let scenario = try Scenario()
        let nobody = try RefusingPort()
        // Held to the end of the test, so no other test's server takes the port meanwhile.
        defer { withExtendedLifetime(nobody) {} }
        let port = nobody.port
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { service in
            let tool = try scenario.launchTool([
                "download", "http://127.0.0.1:\(port)/queued.mp4", "--output", scenario.outputFolder.appendingPathComponent("q").path,
            ])
            try await tool.runScoped { _ in
                try await poll(until: { try await !statusDownloads(scenario).isEmpty }, "a queued download")
            }
            let refused = try await scenario.runTool(["reset"])
            #expect(refused.status == .exited(64), "reset without --yes and without a terminal must refuse")
            #expect(refused.standardError.contains("--yes"))
            #expect(service.process.isRunning)

            let reset = try await scenario.runTool(["reset", "--yes"])
            #expect(reset.status == .exited(0), "\(reset.standardError)")
            #expect(try await service.process.waitForExit() == .exited(0))
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
        // A file that does not exist, whatever the machine's /tmp holds.
        let output = scenario.outputFolder.appending(path: "x").path
        let cases: [([String], String)] = [
            ([], "Usage: backgroundassets-debug"),
            (["frobnicate"], "Unknown subcommand"),
            (["download", "http://127.0.0.1:1/x"], "--output"),
            (["download", "ftp://example.com/x", "--output", output], "scheme ftp"),
            (["download", "http://127.0.0.1:1/x", "--output", output, "--size", "-3"], "--size"),
            (["status", "--bogus"], "--bogus"),
            (["cancel"], "ID"),
            (["-s", "-b", "com.example.app"], "--app-install, --app-update, --periodic-check"),
            (["simulate", "--app-install", "--periodic-check"], "--app-install and --periodic-check"),
            (["simulate", "--bogus"], "Unknown argument \"--bogus\""),
            (["uninstall", "-b", "a", "--app-bundle-id", "b"], "-b"),
            (["settings", "--low-power", "maybe"], "--low-power"),
            (["settings", "-b", "com.example.app"], "--background-refresh"),
            (["trace", "--app", "com.example.app"],
             "--app is now -b/--app-bundle-id. Run backgroundassets-debug trace --help"),
            (["trace", "--follow", "--mermaid"], "--mermaid"),
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

    @Test("install names a missing Info.plist and exits 1 before it starts the service")
    func installNamesMissingPlist() async throws {
        let scenario = try Scenario()
        let missing = scenario.folder.appending("nowhere/Info.plist")
        let extensionPlist = scenario.folder.appending("Extension.plist")
        try Data("<plist/>".utf8).write(to: extensionPlist)
        let result = try await scenario.runTool([
            "install", "--app-plist", missing.path, "--extension-plist", extensionPlist.path,
        ])
        #expect(result.status == .exited(1), "\(result.standardError)")
        #expect(result.standardError.contains(missing.path), "\(result.standardError)")
        #expect(result.standardError.contains("--app-plist"))
        #expect(!FileManager.default.fileExists(atPath: scenario.deviceRoot.appendingPathComponent("run").path),
                "no service was started for a command line that could not work")
    }

    @Test("trace --follow prints the trace so far, then each appended event, and exits 130 on Ctrl-C")
    func traceFollows() async throws {
        let scenario = try Scenario()
        let system = scenario.deviceRoot.appendingPathComponent("system")
        try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
        let trace = system.appendingPathComponent("trace.jsonl")
        func line(_ event: String) -> String {
            #"{"event":"\#(event)","from":"tool","time":"2026-11-23T12:08:03.130Z","to":"backgroundassetsd"}"#
                + "\n"
        }
        try Data(line("earlierEvent").utf8).write(to: trace)
        let tool = try scenario.launchTool(["trace", "--follow"])
        try await tool.runScoped { tool in
            _ = try await tool.waitForLine { $0.hasSuffix("tool -> backgroundassetsd earlierEvent") }
            let handle = try FileHandle(forWritingTo: trace)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(line("laterEvent").utf8))
            try handle.close()
            _ = try await tool.waitForLine { $0.hasSuffix("tool -> backgroundassetsd laterEvent") }
            try tool.signal(SIGINT)
            #expect(try await tool.waitForExit() == .exited(130))
        }
    }
}
