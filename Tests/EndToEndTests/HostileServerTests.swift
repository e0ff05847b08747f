/*
Abstract:
End-to-end: the real service against a server that answers what no good server would, and survives every answer.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("The service against a hostile server", .serialized, .timeLimit(.minutes(2)))
struct HostileServerTests {
    static let file = [UInt8]((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    /// Runs `body` with a service in a fresh scenario and the hostile server, and stops both.
    static func withHostileServer(_ body: (Scenario, ScriptedHTTPServer, ServiceProcess) async throws -> Void) async throws {
        let scenario = try Scenario()
        let server = try hostileServer()
        defer { server.stop() }
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { service in
            try await body(scenario, server, service)
        }
    }

    /// A server that answers each path as its name says, and serves `file` on `/good.mp4`.
    static func hostileServer() throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { head, _ in
            switch head.split(separator: " ")[1] {
            case "/passwd.mp4": .response("302 Found", ["Location: file:///etc/passwd"])
            case "/moved.mp4": .response("302 Found", ["Location: /good.mp4"])
            case "/gzip.mp4":
                .response("200 OK", ["Content-Encoding: gzip"], body: [0x1F, 0x8B, 0x08, 0x00] + Self.file.dropFirst(4))
            case "/endless.mp4": .endlessChunkedBody()
            default: .response("200 OK", ["ETag: \"v1\""], body: Self.file)
            }
        }
    }

    @Test("A redirect to file:///etc/passwd fails the download at once with its reason; the service keeps running")
    func unfetchableRedirect() async throws {
        try await Self.withHostileServer { scenario, server, service in
            let output = scenario.outputFolder.appendingPathComponent("passwd")
            let refused = try await scenario.runTool(["download", server.url("/passwd.mp4").absoluteString, "--output", output.path])
            #expect(refused.status == .exited(1))
            #expect(refused.standardError.contains("file:///etc/passwd"), "\(refused.standardError)")
            #expect(!FileManager.default.fileExists(atPath: output.path))
            #expect(service.process.isRunning, "\(service.process.diagnostics())")

            let status = try await scenario.runTool(["status"])
            #expect(status.status == .exited(0), "\(status.standardError)")
            #expect(status.standardOutput.contains("state=failed"), "\(status.standardOutput)")
            #expect(status.standardOutput.contains("attempts=1 "), "failed at once, not retried: \(status.standardOutput)")
        }
    }

    @Test("A redirect that is followed is in the trace, with the URL the bytes came from")
    func redirectInTrace() async throws {
        try await Self.withHostileServer { scenario, server, _ in
            let output = scenario.outputFolder.appendingPathComponent("moved.mp4")
            let result = try await scenario.runTool(["download", server.url("/moved.mp4").absoluteString, "--output", output.path])
            #expect(result.status == .exited(0), "\(result.standardError)")
            #expect(Array(try Data(contentsOf: output)) == Self.file)
            let trace = TraceEntry.entries(in: try Data(contentsOf: scenario.deviceRoot.appending(path: "system/trace.jsonl")))
            let redirect = try #require(trace.first { $0.event == "redirected" }, "\(trace.map(\.event))")
            #expect(redirect.detail == "302 from \(server.url("/moved.mp4").absoluteString) to \(server.url("/good.mp4").absoluteString)")
        }
    }

    @Test("A gzip body is refused, and an endless body stops at the declared size; neither is saved")
    func bodiesThatAreNotTheFile() async throws {
        try await Self.withHostileServer { scenario, server, _ in
            let gzip = scenario.outputFolder.appendingPathComponent("gzip.mp4")
            let refused = try await scenario.runTool(["download", server.url("/gzip.mp4").absoluteString, "--output", gzip.path,
                                                      "--size", String(Self.file.count)])
            #expect(refused.status == .exited(1))
            #expect(refused.standardError.contains("Content-Encoding: gzip"), "\(refused.standardError)")
            #expect(!FileManager.default.fileExists(atPath: gzip.path))

            let endless = scenario.outputFolder.appendingPathComponent("endless.mp4")
            let stopped = try await scenario.runTool(["download", server.url("/endless.mp4").absoluteString, "--output", endless.path,
                                                      "--size", "1000000"])
            #expect(stopped.status == .exited(1))
            #expect(stopped.standardError.contains("more than the 1000000 bytes the download declared"), "\(stopped.standardError)")
            #expect(!FileManager.default.fileExists(atPath: endless.path))
            let staging = scenario.deviceRoot.appending(path: "staging")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: staging.path))?.filter { $0.hasSuffix(".part") } ?? []
            #expect(left.isEmpty, "the failed download's staging file is gone: \(left)")
        }
    }
}
