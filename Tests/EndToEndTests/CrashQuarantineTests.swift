/*
Abstract:
End-to-end: a download that crashes the service every time it resumes is set aside after three crashes, not after kills.
*/

import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite("Quarantine a download that keeps crashing the service", .serialized, .timeLimit(.minutes(2)))
struct CrashQuarantineTests {
    @Test("Three kill -9s resume the download; three crashes during its transfer set it aside, named in status")
    func quarantineAfterThreeCrashes() async throws {
        let scenario = try Scenario()
        try await withAssetServer(sessionSize: 4_000_000, arguments: ["--throttle", "65536"]) { server in
            let file = try CatalogFile.all(in: server.catalogURL)[0]
            let output = scenario.outputFolder.appendingPathComponent("crashing.mp4")
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                // The tool leaves; the download stays in the service's queue.
                let tool = try scenario.launchTool(["download", server.url(file.path).absoluteString, "--output", output.path])
                try await tool.runScoped { tool in
                    try await waitForDurableBytes(scenario, atLeast: 1)
                    try tool.signal(SIGKILL)
                    _ = try await tool.waitForExit()
                }
            }
            // A kill leaves no marker: it is not the download's fault.
            for signal in [SIGKILL, SIGKILL, SIGKILL, SIGSEGV, SIGSEGV] {
                try await crashWhileTransferring(scenario, with: signal)
                #expect(try await Self.state(scenario) == 2, "after \(signal)")
            }
            try await crashWhileTransferring(scenario, with: SIGSEGV)
            // The third crash: the next service sets the download aside instead of resuming it.
            let download = try #require(try await statusDownloads(scenario).first)
            #expect(try await Self.state(scenario) == -1)
            let message = (download["lastError"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("was quarantined: the service crashed 3 times (last with SIGSEGV)"), "\(message)")
            let table = try await scenario.runTool(["status"])
            #expect(table.standardOutput.contains("state=failed"))
            #expect(table.standardOutput.contains("quarantined"))
            let log = try String(contentsOf: scenario.deviceRoot.appending(path: "system/log"), encoding: .utf8)
            #expect(log.contains("The previous backgroundassetsd crashed (SIGSEGV"))
            await ServiceProcess.killAll(in: scenario.deviceRoot)
        }
    }

    /// The only download's state, as `status --json` reports it (a `BADownload.State` raw value).
    private static func state(_ scenario: Scenario) async throws -> Int? {
        (try await statusDownloads(scenario).first?["download"] as? [String: Any])?["state"] as? Int
    }

    /// Starts the service on demand (through `status`), waits until the download transfers again,
    /// then ends the service with `signal`.
    private func crashWhileTransferring(_ scenario: Scenario, with signal: Int32) async throws {
        let before = try await statusDownloads(scenario).first?["bytesWritten"] as? Int64 ?? 0
        try await waitForDurableBytes(scenario, atLeast: before + 1)
        let pidFile = scenario.deviceRoot.appending(path: "run/backgroundassetsd.pid")
        let text = try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(pid_t(text))
        if signal == SIGKILL {
            kill(pid, signal)
        } else {
            // A crash arrives on the thread that faulted: here, the download's transfer thread.
            let transfer = try await poll("the service \(pid) to run the download's transfer thread") {
                threads(of: pid, namedWithPrefix: "dl-").first?.tid
            }
            #expect(signalThread(transfer, of: pid, with: signal))
        }
        try await poll(until: { kill(pid, 0) != 0 }, "the service \(pid) to end after signal \(signal)")
    }
}
