/*
Abstract:
End-to-end: a device root on a full disk loses no download and leaves none transferring with nothing behind it.
*/

import Foundation
import Testing
import TestSupport

@Suite(
    "Run out of disk space", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: SmallFileSystem.isAvailable, "mounting a tmpfs needs root"))
struct FullDiskTests {
    @Test("On a full disk every download finishes byte-exact or fails with the reason, none is left transferring, and all succeed once space is freed")
    func fullDiskDuringTransfers() async throws {
        let disk = try SmallFileSystem(size: 16 << 20)
        let scenario = try Scenario(deviceRoot: disk.url.appending(path: "device"))
        try await withAssetServer(sessions: 4, sessionSize: 1_000_000, arguments: ["--throttle", "400000"]) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let files = try CatalogFile.all(in: server.catalogURL)
                let commands = files.map { file in
                    ["download", server.url(file.path).absoluteString,
                     "--output", scenario.outputFolder.appending(path: file.file.lastPathComponent).path]
                }
                let tools = try commands.map { try scenario.launchTool($0) }
                try await waitForTransfers(scenario, count: files.count)
                // Nothing left: staging writes, checkpoints, ends and new starts all fail.
                try disk.fill(leaving: 0)
                try await poll(until: {
                    let log = try String(contentsOf: scenario.deviceRoot.appending(path: "system/log"), encoding: .utf8)
                    return log.contains("Recording the end of download") || tools.allSatisfy { !$0.isRunning }
                }, "the full disk to end a download or keep its end unrecorded")
                disk.freeSpace()
                var failed: [[String]] = []
                for (tool, command) in zip(tools, commands) {
                    let status = try await tool.waitForExit()
                    if status != .exited(0) {
                        #expect(tool.standardError().contains("No space left on device"), "\(tool.standardError())")
                        failed.append(command)
                    }
                }
                let states = try await statusDownloads(scenario).compactMap { ($0["download"] as? [String: Any])?["state"] as? Int }
                #expect(!states.contains(2), "no download is left transferring: \(states)")
                // With space again, the same commands finish what failed.
                for command in failed {
                    let result = try await scenario.runTool(command)
                    #expect(result.status == .exited(0), "\(result.standardError)")
                }
                for file in files {
                    let output = scenario.outputFolder.appending(path: file.file.lastPathComponent)
                    #expect(try await sha256(of: output) == file.sha256, "\(file.path)")
                }
            }
        }
    }

    @Test("A finished file that cannot be placed at --output is kept, and the same command places it later")
    func keepsFileTheOutputCannotHold() async throws {
        let disk = try SmallFileSystem(size: 4 << 20)
        let scenario = try Scenario()
        try await withAssetServer(sessions: 1, sessionSize: 3_000_000, arguments: ["--access-log", scenario.accessLog.path]) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let file = try CatalogFile.all(in: server.catalogURL)[0]
                try disk.fill(leaving: 1 << 20)
                let output = disk.url.appending(path: "session.mp4")
                let arguments = ["download", server.url(file.path).absoluteString, "--output", output.path]
                let full = try await scenario.runTool(arguments)
                #expect(!full.status.isSuccess)
                #expect(full.standardError.contains("No space left on device"), "\(full.standardError)")
                #expect(full.standardError.contains("The downloaded file is kept at"), "\(full.standardError)")

                disk.freeSpace()
                let placed = try await scenario.runTool(arguments)
                #expect(placed.status == .exited(0), "\(placed.standardError)")
                #expect(placed.standardError.contains("an earlier run downloaded and kept"))
                #expect(try await sha256(of: output) == file.sha256)
                // The file was fetched once: the second run placed the kept copy.
                let fetches = try scenario.accessEntries(for: file.path).count
                #expect(fetches == 1)
            }
        }
    }

    @Test("An install whose bundle does not fit is refused with the reason, and leaves no partial executable")
    func installThatDoesNotFit() async throws {
        let executable = try ProductsDirectory.executable(named: SampleIdentity.sample.appExecutable)
        let size = try FileManager.default.attributesOfItem(atPath: executable.path)[.size] as? Int ?? 0
        // Room for the service's files and part of one executable, not both of them.
        let disk = try SmallFileSystem(size: size + (2 << 20))
        let scenario = try Scenario(deviceRoot: disk.url.appending(path: "device"))
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
            let result = try await scenario.runTool(["install"])
            #expect(!result.status.isSuccess)
            #expect(result.standardError.contains("could not be written") && result.standardError.contains("No space left on device"),
                    "\(result.standardError)")
            let apps = scenario.deviceRoot.appending(path: "apps")
            let leftovers = FileManager.default.enumerator(atPath: apps.path)?.compactMap { $0 as? String } ?? []
            let app = SampleIdentity.sample.appExecutable
            #expect(!leftovers.contains { $0.hasSuffix(".new") || $0.contains(app) }, "\(leftovers)")
        }
    }

    /// Waits until `count` downloads have bytes on disk, as `status` reports them.
    private func waitForTransfers(_ scenario: Scenario, count: Int) async throws {
        try await poll(until: {
            try await statusDownloads(scenario).filter { ($0["bytesWritten"] as? Int64 ?? 0) > 0 }.count >= count
        }, interval: .milliseconds(50), "\(count) downloads to transfer")
    }
}
