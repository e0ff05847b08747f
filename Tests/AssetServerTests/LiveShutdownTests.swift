/*
Abstract:
Live shutdown: SIGTERM and SIGINT end the server cleanly and promptly.
*/

import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite("Shutdown", .serialized, .timeLimit(.minutes(3)))
struct LiveShutdownTests {
    @Test("SIGTERM or SIGINT makes the server exit 0 and stop listening", arguments: [SIGTERM, SIGINT])
    func signalEndsServer(signal: Int32) async throws {
        try await withAssetServer { server in
            let client = try RawHTTPClient(port: server.port)
            #expect(try await client.request("GET", "/manifest.json").statusCode == 200)
            #expect(server.process.isRunning)
            try server.process.signal(signal)
            let status = try await server.process.waitForExit()
            #expect(status == .exited(0), "\(server.process.diagnostics())")
            #expect(throws: TestSupportError.self) { try RawHTTPClient(port: server.port) }
        }
    }

    @Test("The server prints its readiness line first and keeps stdout for it")
    func readinessLineComesFirst() async throws {
        try await withAssetServer { server in
            let lines = server.process.standardOutputLines()
            #expect(lines.first == "asset-server listening on \(server.baseURL.absoluteString)")
            #expect(server.baseURL.host == "127.0.0.1")
        }
    }

    @Test("An unknown flag is refused with a message on stderr and a non-zero exit")
    func unknownFlagIsRefused() async throws {
        let executable = try ProductsDirectory.executable(named: "asset-server")
        let result = try await runCommand(executable.path, arguments: ["--no-such-flag"])
        #expect(result.status != .exited(0))
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("--no-such-flag"))
    }
}
