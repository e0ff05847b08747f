/*
Abstract:
End-to-end: running the same download again with --foreground promotes it and continues from the same byte.
*/

import Foundation
import Testing
import TestSupport

@Suite("Promote a background download", .serialized, .timeLimit(.minutes(2)))
struct PromotionTests {
    @Test("Re-running a throttled background download with --foreground promotes it on the same transfer, also over https",
          arguments: [false, true])
    func foregroundPromotes(https: Bool) async throws {
        let scenario = try Scenario()
        let tls = try TemporaryDirectory(prefix: "e2e-tls")
        var configuration = quickConfiguration
        // Background transfers share 8 KiB/s, so the 1 MiB file would take over two minutes without
        // promotion, twice the tool's time limit: finishing at all shows the promotion lifted the cap.
        configuration["backgroundBandwidthLimit"] = 8_192
        let serverArguments = ["--access-log", scenario.accessLog.path] + (https ? ["--tls", "--tls-dir", tls.url.path] : [])
        try await withAssetServer(sessionSize: 1_048_576, arguments: serverArguments) { server in
            if https {
                let trusted = try await scenario.runTool(["trust", "add", tls.url.appending(path: "ca.pem").path])
                #expect(trusted.status == .exited(0), "\(trusted.standardError)")
            }
            try await withService(deviceRoot: scenario.deviceRoot, configuration: configuration) { _ in
                let file = try CatalogFile.all(in: server.catalogURL)[0]
                let arguments = ["download", server.url(file.path).absoluteString, "--output",
                                 scenario.outputFolder.appendingPathComponent("promoted.mp4").path]
                let background = try scenario.launchTool(arguments)
                try await background.runScoped { tool in
                    try await waitForDurableBytes(scenario, atLeast: 8_192)
                    try tool.signal(SIGINT)
                    #expect(try await tool.waitForExit() == .exited(130))
                }
                let promoted = try await scenario.runTool(arguments + ["--foreground"])
                #expect(promoted.status == .exited(0), "\(promoted.standardError)")
                #expect(promoted.standardError.contains("Resuming"), "\(promoted.standardError)")
                #expect(try await sha256(of: scenario.outputFolder.appendingPathComponent("promoted.mp4")) == file.sha256)
                // One request served the whole file: promotion lifted the cap without reconnecting.
                let entries = try scenario.accessEntries(for: file.path)
                #expect(entries.count == 1)
                #expect(entries.first?.bytes == Int64(file.size))
            }
        }
    }
}
