/*
Abstract:
Tests that the service refuses a client of the previous protocol version with an answer it can read.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("A hello of the previous protocol version", .serialized, .timeLimit(.minutes(2)))
struct PreviousVersionHelloTests {
    /// The hello version 5 recorded, byte for byte, as a client built from that version sends it.
    static let recordedHello = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "BackgroundAssetsIPCTests/GoldenFrames/v5/request.hello.json")

    @Test("Version 5's recorded hello is answered with callerConnectionNotAccepted naming both versions, then the connection closes")
    func refusedByName() async throws {
        try await InProcessService.with { device in
            let payload = [UInt8](try Data(contentsOf: Self.recordedHello))
            let socket = try UnixSocket.connect(to: device.paths.serviceSocket.path)
            defer { socket.close() }
            try socket.send(FrameEncoder.frame(payload))
            let answer = try await RawServiceClient.nextOutcome(on: socket, timeout: defaultPollTimeout)
            guard case let .message(.response(id, .failure(failure))) = answer else {
                Issue.record("version 5's hello was answered \(answer)")
                return
            }
            #expect(id == 42)
            #expect(failure.code == BAError.Code.callerConnectionNotAccepted.rawValue)
            #expect(failure.message.contains("protocol 5"), "\(failure.message)")
            #expect(failure.message.contains("speaks \(WireProtocol.version)"), "\(failure.message)")
            #expect(try await RawServiceClient.nextOutcome(on: socket, timeout: defaultPollTimeout) == .closed)
        }
    }
}
