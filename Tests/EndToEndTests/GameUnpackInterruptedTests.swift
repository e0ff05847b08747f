/*
Abstract:
End-to-end: the game's processing task stopped in the middle of unpacking new data leaves the previous data whole and current, and the next launch installs the new.
*/

import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite("The game sample's unpack, interrupted", .serialized, .timeLimit(.minutes(3)))
struct GameUnpackInterruptedTests {
    @Test("Killed in the middle of unpacking version 2, the game keeps version 1 whole; the next launch installs version 2")
    func killMidUnpack() async throws {
        let scenario = try Scenario()
        // 24 MiB of game data: its unpack lasts long enough to be caught in the middle.
        try await withAssetServer(sessions: 2, sessionSize: 8 << 20) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let plist = try GameSampleTests.infoPlist(versionURL: server.url("/game/version.json"), in: scenario)
                let install = try await scenario.runTool(["install", "--app-plist", plist.path, "--wait"])
                #expect(install.status == .exited(0), "\(install.standardError)")
                let game = try ProductsDirectory.executable(named: "background-game")
                let first = try await runCommand(game.path, arguments: ["--until-ready", "--timeout", "120"], environment: scenario.environment)
                #expect(first.status == .exited(0), "\(first.standardOutput)")
                let data = scenario.deviceRoot.appendingPathComponent(
                    "containers/group.\(GameSampleTests.bundleIdentifier)/Library/GameData", isDirectory: true)
                let before = try Self.contents(of: data.appendingPathComponent("current"))

                let versionFile = server.catalogURL.appendingPathComponent("game/version.json")
                let text = try String(contentsOf: versionFile, encoding: .utf8)
                try text.replacingOccurrences(of: #""version":1,"#, with: #""version":2,"#)
                    .write(to: versionFile, atomically: true, encoding: .utf8)
                // The open game downloads version 2 and runs the processing task itself: stop it as
                // soon as the unpack has begun, as a crash would, and look before killing it.
                let staging = data.appendingPathComponent(".staging")
                let running = try ChildProcess.launch(
                    executableURL: game, arguments: ["--until-ready", "--timeout", "120"], environment: scenario.environment)
                try await running.runScoped { running in
                    try await poll(until: { FileManager.default.fileExists(atPath: staging.path) },
                                   timeout: .seconds(60), interval: .milliseconds(1), "the unpack to begin")
                    try running.signal(SIGSTOP)
                    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: data.appendingPathComponent("current").path) == "v1")
                    #expect(try Self.contents(of: data.appendingPathComponent("current")) == before, "version 1 is whole")
                    try running.signal(SIGKILL)
                    _ = try await running.waitForExit(timeout: .seconds(10))
                }
                #expect(try FileManager.default.destinationOfSymbolicLink(atPath: data.appendingPathComponent("current").path) == "v1")

                // The archive is still there: the next launch installs it without downloading again.
                let next = try await runCommand(game.path, arguments: ["--until-ready", "--timeout", "120"], environment: scenario.environment)
                #expect(next.status == .exited(0), "\(next.standardOutput)")
                #expect(next.standardOutput.contains("Game data version 2 is downloaded; it is being verified and installed."),
                        "\(next.standardOutput)")
                #expect(try FileManager.default.destinationOfSymbolicLink(atPath: data.appendingPathComponent("current").path) == "v2")
                #expect(try Self.contents(of: data.appendingPathComponent("current")).values.reduce(0, +) == 3 * (8 << 20))
                #expect(!FileManager.default.fileExists(atPath: staging.path), "what the kill left is gone")
            }
        }
    }

    /// Each file under a folder, with its size.
    static func contents(of folder: URL) throws -> [String: Int] {
        let root = folder.resolvingSymlinksInPath()
        var sizes: [String: Int] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root.path) ?? NSEnumerator() {
            let attributes = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)
            if attributes[.type] as? FileAttributeType == .typeRegular { sizes[path] = attributes[.size] as? Int }
        }
        return sizes
    }
}
