/*
Abstract:
End-to-end: interrupted downloads continue where they stopped, and start over only when the file changed.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Resume an interrupted download", .serialized, .timeLimit(.minutes(2)))
struct ResumeTests {
    @Test("A dropped connection resumes with a Range request where the drop happened")
    func resumeAfterDrop() async throws {
        let scenario = try Scenario()
        let arguments = ["--drop-after", "100000", "--access-log", scenario.accessLog.path]
        try await withAssetServer(sessionSize: 262_144, arguments: arguments) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let file = try CatalogFile.all(in: server.catalogURL)[0]
                let output = scenario.outputFolder.appendingPathComponent("dropped.mp4")
                let result = try await scenario.runTool(["download", server.url(file.path).absoluteString, "--output", output.path])
                #expect(result.status == .exited(0), "\(result.standardError)")
                #expect(try await sha256(of: output) == file.sha256)

                // Every request after the first asks for the bytes after the ones already received.
                let entries = try scenario.accessEntries(for: file.path)
                #expect(entries.count >= 3)
                #expect(entries.first?.range == nil)
                var received: Int64 = 0
                for entry in entries {
                    if received > 0 { #expect(entry.range == "bytes=\(received)-", "after \(received) bytes") }
                    #expect(entry.status == (received == 0 ? 200 : 206))
                    received += entry.bytes
                }
                #expect(received == Int64(file.size))
            }
        }
    }

    @Test("Killing the service mid-transfer, with the default checkpoints, re-fetches at most 256 KiB, over http and over https",
          arguments: [false, true])
    func resumeAfterServiceKill(https: Bool) async throws {
        let scenario = try Scenario()
        // The default checkpoints (64 MiB or 1 s): the bytes received since the last one survive
        // a crash of the service in the kernel, and the restart resumes from them.
        var configuration = quickConfiguration
        configuration["checkpointBytes"] = nil
        configuration["checkpointInterval"] = nil
        let tls = try TemporaryDirectory(prefix: "e2e-tls")
        let arguments = ["--throttle", "262144", "--access-log", scenario.accessLog.path]
            + (https ? ["--tls", "--tls-dir", tls.url.path] : [])
        // 4 MiB at 256 KiB/s: the body lasts 16 s, so the kill below lands in its middle even when a
        // busy machine keeps the test from looking for seconds (with 1 MiB the whole file could arrive
        // before the test saw unsynced bytes, and it then waited for them in vain).
        try await withAssetServer(sessionSize: 4_194_304, arguments: arguments) { server in
            if https {
                let trusted = try await scenario.runTool(["trust", "add", tls.url.appending(path: "ca.pem").path])
                #expect(trusted.status == .exited(0), "\(trusted.standardError)")
            }
            try await withService(deviceRoot: scenario.deviceRoot, configuration: configuration) { service in
                let file = try CatalogFile.all(in: server.catalogURL)[0]
                let output = scenario.outputFolder.appendingPathComponent("killed.mp4")
                let tool = try scenario.launchTool(["download", server.url(file.path).absoluteString, "--output", output.path])
                try await tool.runScoped { tool in
                    try await waitForDurableBytes(scenario, atLeast: 200_000)
                    try await waitForStagingBytes(scenario, beyondDurable: 50_000)
                    try service.process.signal(SIGKILL)
                    try await service.process.waitForExit()
                    // The tool notices the lost service, starts it again on demand, and the download resumes.
                    let status = try await tool.waitForExit(timeout: .seconds(60))
                    #expect(status == .exited(0), "\(tool.standardError())")
                }
                #expect(try await sha256(of: output) == file.sha256)
                let entries = try scenario.accessEntries(for: file.path)
                let served = entries.reduce(0) { $0 + $1.bytes }
                #expect(entries.count >= 2)
                // The restart resumed: a 206, or, when every byte had arrived before the kill but the
                // end was not recorded, a 416 for a range starting at the file's size.
                let resumed = try #require(entries.last)
                #expect(resumed.range != nil, "\(entries)")
                #expect(resumed.status == 206 || (resumed.status == 416 && resumed.range == "bytes=\(file.size)-"), "\(entries)")
                #expect(served - Int64(file.size) <= 262_144, "re-fetched \(served - Int64(file.size)) bytes")
            }
        }
    }

    @Test("After a reboot only the synced bytes are trusted: an unsynced tail is fetched again")
    func resumeAfterReboot() async throws {
        let scenario = try Scenario()
        var configuration = quickConfiguration
        configuration["checkpointBytes"] = nil
        configuration["checkpointInterval"] = nil
        let arguments = ["--throttle", "262144", "--access-log", scenario.accessLog.path]
        try await withAssetServer(sessionSize: 1_048_576, arguments: arguments) { server in
            // Held after 600,000 bytes: the kill lands mid-transfer however late the test looks.
            let relay = try HoldingRelay(to: server.port, holdingAfter: 600_000)
            defer { relay.stop() }
            let file = try CatalogFile.all(in: server.catalogURL)[0]
            let url = relay.url(file.path).absoluteString
            let output = scenario.outputFolder.appendingPathComponent("rebooted.mp4")
            let staging = scenario.deviceRoot.appendingPathComponent("staging", isDirectory: true)
            try await withService(deviceRoot: scenario.deviceRoot, configuration: configuration,
                                  extraEnvironment: ["BA_BOOT_ID": "boot-1"]) { service in
                let tool = try scenario.launchTool(["download", url, "--output", output.path])
                try await tool.runScoped { tool in
                    try await waitForDurableBytes(scenario, atLeast: 200_000)
                    try tool.signal(SIGKILL)
                    try service.process.signal(SIGKILL)
                    try await service.process.waitForExit()
                }
            }
            // Every answer the killed service asked for ends now, not at the release, so the server logs
            // it before the next run's (throttled) answer, whose entry must be the log's last.
            try await poll(until: { relay.openConnections == 0 }, "the killed service's connections to end")
            // What a power loss leaves past the last sync: bytes that were never the file's.
            let part = try #require(try FileManager.default.contentsOfDirectory(atPath: staging.path).first)
            let handle = try FileHandle(forWritingTo: staging.appendingPathComponent(part))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(repeating: 0xEE, count: 8192))
            try handle.close()
            relay.release()

            try await withService(deviceRoot: scenario.deviceRoot, configuration: configuration,
                                  extraEnvironment: ["BA_BOOT_ID": "boot-2"]) { _ in
                let result = try await scenario.runTool(["download", url, "--output", output.path])
                #expect(result.status == .exited(0), "\(result.standardError)")
            }
            #expect(try await sha256(of: output) == file.sha256)
            let last = try #require(try scenario.accessEntries(for: file.path).last)
            #expect(last.status == 206, "the synced bytes are kept")
        }
    }

    @Test("A file that changes while the service is stopped is fetched again from zero")
    func restartWhenFileChanges() async throws {
        let scenario = try Scenario()
        let catalog = try TemporaryDirectory(prefix: "e2e-catalog")
        let arguments = ["--throttle", "262144", "--access-log", scenario.accessLog.path]
        try await withAssetServer(catalogURL: catalog.url, sessionSize: 1_048_576, arguments: arguments) { server in
            // Held after 600,000 bytes: the kill lands mid-transfer however late the test looks.
            let relay = try HoldingRelay(to: server.port, holdingAfter: 600_000)
            defer { relay.stop() }
            let file = try CatalogFile.all(in: server.catalogURL)[0]
            let url = relay.url(file.path).absoluteString
            let output = scenario.outputFolder.appendingPathComponent("changed.mp4")
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { service in
                let tool = try scenario.launchTool(["download", url, "--output", output.path])
                try await tool.runScoped { tool in
                    try await waitForDurableBytes(scenario, atLeast: 200_000)
                    try tool.signal(SIGKILL)
                    try service.process.signal(SIGKILL)
                    try await service.process.waitForExit()
                }
            }
            // Every answer the killed service asked for ends now, not at the release, so the server logs
            // it before the next run's (throttled) answer, whose entry must be the log's last.
            try await poll(until: { relay.openConnections == 0 }, "the killed service's connections to end")
            // A new version of the same size: same path, new validators.
            let replacement = Data((0..<file.size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) })
            let staged = catalog.appending("replacement.tmp")
            try replacement.write(to: staged)
            #expect(rename(staged.path, file.file.path) == 0)
            let newDigest = try await sha256(of: file.file)
            #expect(newDigest != file.sha256)
            relay.release()

            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let result = try await scenario.runTool(["download", url, "--output", output.path])
                #expect(result.status == .exited(0), "\(result.standardError)")
            }
            #expect(try await sha256(of: output) == newDigest)
            // The resumed request was answered with the whole new file, never spliced onto the old bytes.
            let entries = try scenario.accessEntries(for: file.path)
            let last = try #require(entries.last)
            #expect(last.status == 200, "\(entries)")
            #expect(last.bytes == Int64(file.size), "\(entries)")
        }
    }
}

/// Waits until the scenario's only staging file holds at least `bytes` more than `status` reports as synced.
func waitForStagingBytes(_ scenario: Scenario, beyondDurable bytes: Int64) async throws {
    let staging = scenario.deviceRoot.appendingPathComponent("staging", isDirectory: true)
    try await poll(until: {
        let durable = try await durableBytes(scenario)
        guard let name = try FileManager.default.contentsOfDirectory(atPath: staging.path).first else {
            throw TestSupportError("The transfer ended before \(bytes) bytes waited unsynced in its staging file.")
        }
        let size = try FileManager.default.attributesOfItem(atPath: staging.appendingPathComponent(name).path)[.size] as? Int64 ?? 0
        return size - durable >= bytes
    }, interval: .milliseconds(20), "\(bytes) unsynced bytes in the staging file")
}

/// Waits until the scenario's only download has at least `bytes` durably written, as `status` reports it.
func waitForDurableBytes(_ scenario: Scenario, atLeast bytes: Int64) async throws {
    try await poll(until: {
        try await durableBytes(scenario) >= bytes
    }, interval: .milliseconds(100), "\(bytes) bytes to be written")
}

/// The bytes the service reports as durably written for the scenario's only download, asked over a
/// connection of the test process's own: launching `backgroundassets-debug status` for every look
/// takes seconds on a busy machine, longer than the middle of a throttled transfer lasts. It speaks
/// as an app no one installed, the only identity a test process may take on a device that checks.
private func durableBytes(_ scenario: Scenario) async throws -> Int64 {
    let client = try RawServiceClient(deviceRoot: scenario.deviceRoot, bundleIdentifier: "com.example.resume-tests")
    defer { client.close() }
    guard case let .status(status) = try await client.ask(.core(.fetchStatus)) else {
        throw TestSupportError("The service answered fetchStatus without a status.")
    }
    return status.downloads.first?.bytesWritten ?? 0
}
