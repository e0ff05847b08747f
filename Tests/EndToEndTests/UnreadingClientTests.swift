/*
Abstract:
End-to-end: a client that sends requests but never reads its answers cannot stall anyone else.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("A client that never reads", .serialized, .timeLimit(.minutes(2)))
struct UnreadingClientTests {
    @Test("Others are served while one client leaves its answers unread, and that client is then disconnected")
    func othersKeepGoing() async throws {
        let scenario = try Scenario()
        try await withAssetServer(sessionSize: 262_144) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { service in
                let hung = try UnixSocket.connect(to: scenario.deviceRoot.appendingPathComponent("run/backgroundassetsd.sock").path)
                let hello = Hello(bundleIdentifier: "com.example.hung", role: .app, processIdentifier: getpid())
                try hung.send(MessageCodec.frame(ClientMessage(id: 1, request: .hello(hello))))
                // About a megabyte of answers: far more than the socket's buffers hold, less than
                // the backlog that gets a client disconnected.
                let sample = try RawServiceClient(deviceRoot: scenario.deviceRoot, bundleIdentifier: "com.example.sample")
                let answer = try MessageCodec.frame(ServerMessage.response(id: 2, response: sample.send(.core(.fetchStatus))))
                let unanswered = (1 << 20) / answer.count
                try await blocking {
                    for id in 2..<UInt64(2 + unanswered) {
                        try hung.send(MessageCodec.frame(ClientMessage(id: id, request: .core(.fetchStatus))))
                    }
                }

                let status = try await scenario.runTool(["status"])
                #expect(status.status == .exited(0), "\(status.standardError)")
                let file = try CatalogFile.all(in: server.catalogURL)[0]
                let output = scenario.outputFolder.appendingPathComponent("while-hung.mp4")
                let download = try await scenario.runTool(["download", server.url(file.path).absoluteString, "--output", output.path])
                #expect(download.status == .exited(0), "\(download.standardError)")
                #expect(try await sha256(of: output) == file.sha256)

                // Now past the backlog: requests back to back until the service lets the client go
                // and says why. Each answer adds to what the client leaves unread, so the service lets
                // it go after at most (backlog + what the kernel buffers) / answer.count more; sending
                // four backlogs' worth leaves the kernel's buffer sizes out of it. The wait that
                // follows is for the service to get through the requests, which a busy machine only
                // slows down: nothing here depends on how long a pause between two requests lasts.
                let backlog = 4 << 20 // ClientConnection.maximumBacklog
                let limit = UInt64(4 * backlog / answer.count)
                let refusedSend = try await blocking { () -> Bool in
                    for id in 0..<limit {
                        do {
                            try hung.send(MessageCodec.frame(ClientMessage(id: 1_000_000 + id, request: .core(.fetchStatus))))
                        } catch {
                            return true
                        }
                    }
                    return false
                }
                let disconnected = try await poll(timeout: .seconds(60), "the hung client to be disconnected") { () -> Bool? in
                    if refusedSend { return true }
                    do {
                        try hung.send(MessageCodec.frame(ClientMessage(id: 0, request: .core(.fetchStatus))))
                        return nil
                    } catch {
                        return true
                    }
                }
                #expect(disconnected)
                hung.close()
                #expect(service.process.isRunning)
                let log = try await poll("the disconnection in the log") { () -> String? in
                    let text = (try? String(contentsOf: scenario.deviceRoot.appending(path: "system/log"), encoding: .utf8)) ?? ""
                    return text.contains("of answers unread") ? text : nil
                }
                #expect(log.contains("Disconnected process \(getpid())"))
                #expect(try await scenario.runTool(["status"]).status == .exited(0))
                let final = try String(contentsOf: scenario.deviceRoot.appending(path: "system/log"), encoding: .utf8)
                #expect(final.components(separatedBy: "of answers unread").count == 2, "disconnected once, said once")
            }
        }
    }
}
