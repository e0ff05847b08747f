/*
Abstract:
End-to-end: a client that has not said hello cannot make the service read a large frame.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("A stranger's large frame", .serialized, .timeLimit(.minutes(2)))
struct OversizedHelloTests {
    @Test("A hello larger than 64 KiB closes that connection before it is read; a hello of any size after it works")
    func oversizedHello() async throws {
        let scenario = try Scenario()
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { service in
            let socketPath = scenario.deviceRoot.appendingPathComponent("run/backgroundassetsd.sock").path
            let stranger = try UnixSocket.connect(to: socketPath)
            let huge = Hello(bundleIdentifier: String(repeating: "A", count: 1 << 20), role: .app, processIdentifier: getpid())
            let frame = try MessageCodec.frame(ClientMessage(id: 1, request: .hello(huge)))
            // Only the length is needed for the refusal; the service closes before the body.
            try? stranger.send(Array(frame.prefix(4096)))
            #expect(try await RawServiceClient.nextOutcome(on: stranger) == .closed)
            stranger.close()
            let log = try await poll("the refusal in the log") { () -> String? in
                let text = (try? String(contentsOf: scenario.deviceRoot.appending(path: "system/log"), encoding: .utf8)) ?? ""
                return text.contains("\(WireProtocol.maximumHelloFrameSize)") ? text : nil
            }
            #expect(log.contains("Closed the connection of process"))
            #expect(service.process.isRunning)

            // After hello, a client may send frames up to the full limit.
            let client = try RawServiceClient(deviceRoot: scenario.deviceRoot, bundleIdentifier: "com.example.big")
            let descriptor = DownloadDescriptor(
                identifier: String(repeating: "B", count: 1 << 20), uniqueIdentifier: UUID().uuidString,
                url: "http://127.0.0.1:1/x", headers: [:], fileSize: 1,
                applicationGroupIdentifier: "group.com.example.big", priority: 0, isEssential: false)
            guard case .failure = try client.send(.downloads(.cancel(download: descriptor))) else {
                Issue.record("cancelling an unknown download was not refused")
                return
            }
        }
    }
}
