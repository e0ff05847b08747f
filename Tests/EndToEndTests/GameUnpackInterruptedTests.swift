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

@Suite("The game sample's unpack, interrupted", .serialized, .timeLimit(.minutes(15)))
struct GameUnpackInterruptedTests {
    /// The generated catalog's session size; the game's archive holds three of them.
    static let sessionSize = 24 << 20

    @Test("Killed in the middle of unpacking a new version, the game keeps the previous one whole; the next launch installs the new one")
    func killMidUnpack() async throws {
        let scenario = try Scenario()
        // 72 MiB of game data: its unpack lasts long enough to be caught in the middle, also when a
        // busy machine makes the test slow to look.
        try await withAssetServer(sessions: 2, sessionSize: Self.sessionSize) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let plist = try GameSampleTests.infoPlist(versionURL: server.url("/game/version.json"), in: scenario)
                let install = try await scenario.runTool(["install", "--app-plist", plist.path, "--wait"])
                #expect(install.status == .exited(0), "\(install.standardError)")
                let game = try ProductsDirectory.executable(named: "background-game")
                let first = try await runCommand(game.path, arguments: ["--until-ready", "--timeout", "120"], environment: scenario.environment)
                #expect(first.status == .exited(0), "\(first.standardOutput)")
                let data = scenario.deviceRoot.appendingPathComponent(
                    "containers/group.\(GameSampleTests.bundleIdentifier)/Library/GameData", isDirectory: true)
                // A busy machine may not let the test look before a whole unpack is over: then the
                // game installed that version, and the next is announced, a few times at most.
                var caught: Int?
                for version in 2...6 where caught == nil {
                    caught = try await Self.stopInTheUnpack(of: version, game: game, versionFile: server.catalogURL
                        .appendingPathComponent("game/version.json"), data: data, scenario: scenario)
                }
                let version = try #require(caught, "the unpack was never caught in the middle")
                let current = data.appendingPathComponent("current").path

                // The archive is still there: it is installed without downloading again, by the next
                // launch or, once the killed game is gone, by its processing task in a background
                // launch, which the system may run first.
                let next = try await runCommand(game.path, arguments: ["--until-ready", "--timeout", "120"], environment: scenario.environment)
                #expect(next.status == .exited(0), "\(next.standardOutput)")
                #expect(next.standardOutput.contains("Game data version \(version) is installed and verified. Ready to play."),
                        "\(next.standardOutput)")
                #expect(!next.standardOutput.contains("Downloading game data"), "\(next.standardOutput)")
                #expect(try FileManager.default.destinationOfSymbolicLink(atPath: current) == "v\(version)")
                #expect(try Self.contents(of: data.appendingPathComponent("current")).values.reduce(0, +) == 3 * Self.sessionSize)
                #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent(".staging").path), "what the kill left is gone")
            }
        }
    }

    /// Announces `version`, opens the game, and stops it once its unpack has begun: the previous
    /// version must then be current and whole. Kills it there.
    /// - Returns: `version` when the unpack was caught in the middle, `nil` when the game had installed it first.
    static func stopInTheUnpack(of version: Int, game: URL, versionFile: URL, data: URL, scenario: Scenario) async throws -> Int? {
        let current = data.appendingPathComponent("current")
        let previous = try FileManager.default.destinationOfSymbolicLink(atPath: current.path)
        let before = try contents(of: current)
        let text = try String(contentsOf: versionFile, encoding: .utf8)
        try text.replacingOccurrences(of: #""version":\d+,"#, with: "\"version\":\(version),", options: .regularExpression)
            .write(to: versionFile, atomically: true, encoding: .utf8)
        let staging = data.appendingPathComponent(".staging")
        // At a lower priority, so that on a busy machine the test's look comes before the unpack's
        // end; nice execs the game, which keeps its process id. Not the lowest: beside two test suites
        // and a build, a game at nice 19 got so little of the processor that it had not begun its
        // unpack after two minutes.
        let running = try ChildProcess.launch(
            executableURL: try locateExecutable("nice"), arguments: ["-n", "10", game.path, "--until-ready", "--timeout", "300"],
            environment: scenario.environment)
        return try await running.runScoped { running in
            try await poll(until: { FileManager.default.fileExists(atPath: staging.path) || !running.isRunning },
                           timeout: .seconds(300), interval: .milliseconds(1), "the unpack to begin")
            try? running.signal(SIGSTOP)
            // Stopped as a crash would stop it: the previous version is what the game sees, whole.
            let inTheMiddle = FileManager.default.fileExists(atPath: staging.path)
            if inTheMiddle {
                #expect(try FileManager.default.destinationOfSymbolicLink(atPath: current.path) == previous)
                #expect(try contents(of: current) == before, "the previous version is whole")
            }
            try? running.signal(SIGKILL)
            _ = try await running.waitForExit()
            return inTheMiddle ? version : nil
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
