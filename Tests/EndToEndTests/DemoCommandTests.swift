/*
Abstract:
The one-command demo from start to finish: asset server, install with essential sessions, app launch, every session verified.
*/

import Foundation
import TestSupport
import Testing

@Suite("Demo command")
struct DemoCommandTests {
    /// The repository's root, where the demo finds App/Info.plist and Extension/Info.plist.
    static var repositoryRoot: URL { SampleIdentity.repositoryRoot }

    @Test("wwdc-sessions-demo installs the app, launches it, and ends with every session verified; also over https",
          arguments: [false, true])
    func demoEndsWithEverySessionVerified(https: Bool) async throws {
        let scenario = try Scenario()
        let catalog = scenario.folder.appending("catalog")
        let demo = try ChildProcess.launch(
            executableURL: try ProductsDirectory.executable(named: "wwdc-sessions-demo"),
            // The https server's CA goes into the scenario's folder, never into the repository the demo runs in.
            arguments: ["--port", "0", "--catalog", catalog.path, "--timeout", "120"]
                + (https ? ["--https", "--tls-dir", scenario.folder.appending("tls").path] : []),
            environment: scenario.environment, currentDirectory: Self.repositoryRoot)
        let status: TestSupport.ExitStatus
        do {
            status = try await demo.waitForExit(timeout: .seconds(180))
        } catch {
            await demo.terminate()
            await ServiceProcess.killAll(in: scenario.deviceRoot)
            throw error
        }
        await ServiceProcess.killAll(in: scenario.deviceRoot)
        #expect(status.isSuccess, "\(demo.diagnostics())")
        let output = demo.standardOutput()
        #expect(output.contains("Done: every session is on the device and verified."))
        #expect(output.contains("Watch it live: http://127.0.0.1:"), "the demo starts the live timeline first")
        // The demo stopped the server it started, so its hints start one where the installed app looks.
        let port = try #require(output.firstMatch(of: /Started the asset server at https?:\/\/127\.0\.0\.1:(\d+)/)?.1)
        let tls = https ? " --tls --tls-dir \(scenario.folder.appending("tls").path)" : ""
        #expect(output.contains("`swift run asset-server --port \(port) --catalog \(catalog.path)\(tls)`"),
                "\(output)")
        if https {
            #expect(FileManager.default.fileExists(atPath: scenario.folder.appending("tls/ca.pem").path))
            #expect(output.contains("Trust the local CA on the device"))
            #expect(output.contains("https://127.0.0.1:"))
        }

        // Every file in the app group matches the catalog's bytes, and the essential ones came first.
        let sessions = scenario.deviceRoot.appending(path: "containers/\(SampleDevice.appGroupIdentifier)/Library/Caches/Sessions")
        let files = try CatalogFile.all(in: catalog)
        #expect(!files.isEmpty)
        for file in files {
            let local = sessions.appending(path: file.file.lastPathComponent)
            #expect(try await sha256(of: local) == file.sha256, "\(local.path)")
        }
        let trace = try String(contentsOf: scenario.deviceRoot.appending(path: "system/trace.jsonl"), encoding: .utf8)
        let launchable = try #require(trace.range(of: "\"event\":\"appLaunchable\""))
        let launched = try #require(trace.range(of: "\"event\":\"appLaunched\""))
        #expect(launchable.lowerBound < launched.lowerBound, "the app launched only once the install was done")

        // The demo drew its run and said where: a lane for every session.
        let timeline = scenario.deviceRoot.appending(path: "demo/timeline.svg")
        #expect(demo.standardError().contains("into \(timeline.path)"), "\(demo.standardError())")
        let svg = try String(contentsOf: timeline, encoding: .utf8)
        for file in files {
            let id = file.file.deletingPathExtension().lastPathComponent
            #expect(svg.contains("data-download=\"\(id)\""), "no lane for \(id)")
        }
    }

    @Test("Ctrl-C stops the demo with status 130, and the processes it started with it")
    func interruptExits130() async throws {
        let scenario = try Scenario()
        // The demo reuses a server already on its port. This one is throttled, so the install is
        // still running when Ctrl-C comes, however late a busy machine lets the test send it: the
        // demo's own server, unthrottled, let the whole demo end first.
        try await withAssetServer(sessions: 4, sessionSize: 4 << 20, arguments: ["--throttle", "262144"]) { server in
            let demo = try ChildProcess.launch(
                executableURL: try ProductsDirectory.executable(named: "wwdc-sessions-demo"),
                arguments: ["--port", String(server.port), "--timeout", "120"],
                environment: scenario.environment, currentDirectory: Self.repositoryRoot)
            defer { Task { await ServiceProcess.killAll(in: scenario.deviceRoot) } }
            _ = try await demo.waitForLine(timeout: .seconds(60)) { $0.contains("Install the app") }
            let children = try await poll("the demo's install tool") { () -> [Int32]? in
                let children = Self.children(of: demo.pid)
                return children.isEmpty ? nil : children
            }
            // A terminal sends Ctrl-C to its foreground process group. Foundation's Process starts
            // each child in a group of its own, so the signal reaches the demo alone, and the demo
            // stops what it started: their endings (SIGTERM, 143) are the demo's interruption, not
            // a failed step, whichever the demo sees first.
            kill(-getpgid(demo.pid), SIGINT)
            let status = try await demo.waitForExit()
            await ServiceProcess.killAll(in: scenario.deviceRoot)
            #expect(status == .exited(130), "\(demo.diagnostics())")
            #expect(demo.standardError().contains("wwdc-sessions-demo: interrupted"), "\(demo.diagnostics())")
            try await poll(until: { children.allSatisfy { !isProcessAlive($0) } },
                           "the demo's children to end with it")
        }
    }

    @Test("A second demo on the same device root is refused at once, naming the running one and what to do")
    func secondDemoIsRefused() async throws {
        let scenario = try Scenario()
        // Throttled, so the first demo is still installing whenever the second one starts.
        try await withAssetServer(sessions: 4, sessionSize: 4 << 20, arguments: ["--throttle", "262144"]) { server in
            let first = try ChildProcess.launch(
                executableURL: try ProductsDirectory.executable(named: "wwdc-sessions-demo"),
                arguments: ["--port", String(server.port), "--timeout", "120"],
                environment: scenario.environment, currentDirectory: Self.repositoryRoot)
            defer { Task { await ServiceProcess.killAll(in: scenario.deviceRoot) } }
            try await first.runScoped { first in
                // The lock is taken before the demo's first line.
                _ = try await first.waitForLine(timeout: .seconds(60)) { $0.contains("demo, device root") }
                let second = try await runCommand(
                    try ProductsDirectory.executable(named: "wwdc-sessions-demo").path,
                    arguments: ["--port", "0", "--timeout", "120"], environment: scenario.environment)
                #expect(second.status == .exited(1), "\(second.standardError)")
                #expect(second.standardError.contains("Another wwdc-sessions-demo (pid \(first.pid)) is running on the device root"),
                        "\(second.standardError)")
                #expect(second.standardError.contains("BA_DEVICE_ROOT="), "\(second.standardError)")
                #expect(second.standardOutput.isEmpty, "the second demo started nothing: \(second.standardOutput)")
                #expect(isProcessAlive(first.pid), "the first demo runs on")
            }
        }
    }

    /// The processes `pid` started itself, from `/proc`.
    static func children(of pid: Int32) -> [Int32] {
        let all = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init)
        return all.filter { candidate in
            guard let stat = try? String(contentsOfFile: "/proc/\(candidate)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid
        }
    }
}
