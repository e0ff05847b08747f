/*
Abstract:
End-to-end: schedules sent without waiting for each answer are answered in order, each once it is in the queue.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Pipelined schedules", .timeLimit(.minutes(3)))
struct PipelinedScheduleTests {
    @Test("A hundred schedules in one write are all answered, in order, and a kill -9 after the answers loses none")
    func answeredInOrderAndKept() async throws {
        let scenario = try Scenario()
        let count = 100
        // A server that never answers in time keeps the downloads queued, so the queue is what is checked.
        try await withAssetServer(arguments: ["--latency", "600000"]) { server in
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { service in
                let socket = try UnixSocket.connect(to: scenario.deviceRoot.appendingPathComponent("run/backgroundassetsd.sock").path)
                defer { socket.close() }
                let hello = Hello(bundleIdentifier: "com.example.pipelined", role: .app, processIdentifier: getpid())
                var batch = try MessageCodec.frame(ClientMessage(id: 1, request: .hello(hello)))
                for index in 0..<count {
                    let descriptor = DownloadDescriptor(
                        identifier: "pipelined-\(index)", uniqueIdentifier: UUID().uuidString,
                        url: server.url("/never/\(index).bin").absoluteString,
                        applicationGroupIdentifier: "group.com.example.pipelined")
                    batch += try MessageCodec.frame(ClientMessage(id: UInt64(index + 2), request: .downloads(.schedule(download: descriptor))))
                }
                try socket.send(batch)

                var decoder = FrameDecoder()
                var answered: [UInt64] = []
                try await poll(until: {
                    if let descriptor = socket.descriptor {
                        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                        if Glibc.poll(&entry, 1, 0) > 0 { decoder.append(try socket.receive()) }
                    }
                    while let payload = try decoder.nextFrame() {
                        guard case let .response(id, response) = try MessageCodec.decode(ServerMessage.self, from: payload)
                        else { continue }
                        if id > 1, case .failure(let failure) = response { Issue.record("schedule \(id) failed: \(failure.message)") }
                        answered.append(id)
                    }
                    return answered.count == count + 1
                }, "every schedule to be answered")
                #expect(answered == Array(1...UInt64(count + 1)), "answers come in the order of the requests")

                // Every answered schedule is on disk: a kill -9 right after the last answer keeps them all.
                kill(service.process.pid, SIGKILL)
                _ = try await service.process.waitForExit()
            }
            try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
                let client = try RawServiceClient(deviceRoot: scenario.deviceRoot, bundleIdentifier: "com.example.pipelined")
                guard case let .downloads(current) = try client.send(.downloads(.fetchCurrentDownloads)) else {
                    Issue.record("fetchCurrentDownloads did not answer with downloads")
                    return
                }
                #expect(current.count == count)
            }
        }
    }
}
