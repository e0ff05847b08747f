/*
Abstract:
End-to-end: the game sample checks its version file, downloads its data in the background after it exits, is relaunched for it, notifies, and installs it in a processing task.
*/

import Foundation
import Testing
import TestSupport

@Suite("The game sample", .serialized, .timeLimit(.minutes(3)))
struct GameSampleTests {
    static let bundleIdentifier = "com.example.apple-samplecode.BackgroundGame"
    static let sessionIdentifier = "com.example.apple-samplecode.BackgroundGame.data"

    @Test("Version check, background download with the game gone, relaunch, notifications, processing task, data unpacked, then an update")
    func endToEnd() async throws {
        let scenario = try Scenario()
        // 768 KiB of game data at 256 KiB/s: the game has long exited when the transfer ends.
        let arguments = ["--throttle", "262144", "--access-log", scenario.accessLog.path]
        try await withAssetServer(sessions: 2, sessionSize: 262_144, arguments: arguments) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let plist = try Self.infoPlist(versionURL: server.url("/game/version.json"), in: scenario)
                let install = try await scenario.runTool(["install", "--app-plist", plist.path, "--wait"])
                #expect(install.status == .exited(0), "\(install.standardError)")
                let status = try await scenario.runTool(["status"]).standardOutput
                #expect(status.contains("suspended-because=\"the app has no downloader extension\""), "no periodic checks: \(status)")

                let game = try ProductsDirectory.executable(named: "background-game").path
                let first = try await runCommand(game, environment: scenario.environment)
                #expect(first.status == .exited(0), "\(first.standardError)")
                #expect(first.standardOutput.contains("Downloading game data version 1 (0.8 MiB) in the background."),
                        "\(first.standardOutput)")
                #expect(first.standardOutput.contains("You can leave the game"))

                // The game is gone: the system finishes the transfer and launches it for the events.
                let delivered = try await poll(timeout: .seconds(60), interval: .milliseconds(200), "ready to play") {
                    let listed = try await scenario.runTool(["notifications", "-b", Self.bundleIdentifier]).standardOutput
                    return listed.contains("ready-to-play") ? listed : nil
                }
                #expect(delivered.contains("download-complete  Download complete"), "\(delivered)")
                let trace = try await scenario.runTool(["trace", "-b", Self.bundleIdentifier]).standardOutput
                #expect(trace.contains("for the events of background session \(Self.sessionIdentifier)"), "\(trace)")
                // Relaunched, the game gets the file, schedules the processing task, and the task ends.
                let order = ["-> app launchInBackground", "-> app didFinishDownloadingTo", "submitTaskRequest", "taskCompleted"]
                    .map { trace.range(of: " \($0) ")?.lowerBound }
                #expect(order.allSatisfy { $0 != nil } && order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "\(trace)")

                let ready = try await runCommand(game, arguments: ["--until-ready", "--timeout", "30"], environment: scenario.environment)
                #expect(ready.status == .exited(0), "\(ready.standardOutput)")
                #expect(ready.standardOutput.contains("Game data version 1 is installed and verified. Ready to play."))
                try Self.checkUnpacked(in: scenario, totalSize: 3 * 262_144)
                try await Self.updateToVersion2(game, server: server, in: scenario)
            }
        }
    }

    /// The server announces version 2: the next launch downloads it, and the install replaces version 1.
    static func updateToVersion2(_ game: String, server: AssetServerProcess, in scenario: Scenario) async throws {
        let versionFile = server.catalogURL.appendingPathComponent("game/version.json")
        let text = try String(contentsOf: versionFile, encoding: .utf8)
        try text.replacingOccurrences(of: #""version":1,"#, with: #""version":2,"#).write(to: versionFile, atomically: true, encoding: .utf8)
        let update = try await runCommand(game, arguments: ["--until-ready", "--timeout", "60"], environment: scenario.environment)
        #expect(update.status == .exited(0), "\(update.standardOutput)")
        #expect(update.standardOutput.contains("Downloading game data version 2"), "\(update.standardOutput)")
        #expect(update.standardOutput.contains("Game data version 2 is installed and verified. Ready to play."))
        let data = scenario.deviceRoot.appendingPathComponent("containers/group.\(bundleIdentifier)/Library/GameData")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: data.appendingPathComponent("current").path) == "v2")
        // The install that switched may be the processing task of a background launch, which
        // removes the old version just after the switch the game saw.
        let old = data.appendingPathComponent("v1").path
        try await poll(until: { !FileManager.default.fileExists(atPath: old) }, "the old version to be removed")
    }

    /// A copy of the game's Info.plist whose version file is on the test's server.
    static func infoPlist(versionURL: URL, in scenario: Scenario) throws -> URL {
        try infoPlistCopy(of: "App/BackgroundGame/Info.plist", setting: "GameVersionURL", to: versionURL,
                          at: scenario.outputFolder.appendingPathComponent("Info.plist"))
    }

    /// The installed data is the archive's eight files, through `current`, with nothing staged left over.
    static func checkUnpacked(in scenario: Scenario, totalSize: Int) throws {
        let data = scenario.deviceRoot.appendingPathComponent(
            "containers/group.\(bundleIdentifier)/Library/GameData", isDirectory: true)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: data.appendingPathComponent("current").path) == "v1")
        let files = (1...6).map { "Levels/level-\($0).dat" } + ["Textures/atlas.dat", "Audio/music.dat"]
        let sizes = try files.map {
            try FileManager.default.attributesOfItem(atPath: data.appendingPathComponent("current/\($0)").path)[.size] as? Int ?? 0
        }
        #expect(sizes.reduce(0, +) == totalSize)
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent(".staging").path))
    }
}
