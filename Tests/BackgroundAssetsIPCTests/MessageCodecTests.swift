/*
Abstract:
Tests that every message and event survives encoding, framing, and decoding unchanged.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Message encoding")
struct MessageCodecTests {
    static func roundTrip<Message: Codable & Equatable>(_ message: Message) throws -> Message {
        var decoder = FrameDecoder()
        decoder.append(try MessageCodec.frame(message))
        let payload = try #require(try decoder.nextFrame())
        #expect(try decoder.nextFrame() == nil)
        try decoder.finish()
        return try MessageCodec.decode(Message.self, from: payload)
    }

    @Test("Every client request round-trips", arguments: SampleMessages.clientMessages.indices)
    func clientMessages(index: Int) throws {
        let message = SampleMessages.clientMessages[index]
        #expect(try Self.roundTrip(message) == message)
    }

    @Test("Every response and event round-trips", arguments: SampleMessages.serverMessages.indices)
    func serverMessages(index: Int) throws {
        let message = SampleMessages.serverMessages[index]
        #expect(try Self.roundTrip(message) == message)
    }

    @Test(
        "Hostile strings survive as identifiers, URLs, headers and messages", arguments: SampleMessages.hostileStrings)
    func hostileStrings(hostile: RawText) throws {
        let string = hostile.text
        var descriptor = SampleMessages.descriptor(identifier: string)
        descriptor.url = string
        descriptor.headers = [string: string]
        let request = ClientMessage(id: 1, request: .downloads(.schedule(download: descriptor)))
        #expect(try Self.roundTrip(request) == request)
        let event = ServerMessage.event(
            .failed(download: descriptor, failure: .backgroundAssets(code: 0, message: string)))
        #expect(try Self.roundTrip(event) == event)
    }

    @Test("Equal messages encode to identical bytes")
    func deterministicEncoding() throws {
        let message = ClientMessage(id: 9, request: .downloads(.schedule(download: SampleMessages.descriptor())))
        #expect(try MessageCodec.encode(message) == MessageCodec.encode(message))
    }

    @Test("A payload that is not a message is rejected with the place it went wrong")
    func malformedPayloads() {
        let payloads = [
            "not json", "{}", #"{"id": 1}"#, #"{"id": "one", "request": {"downloads": {"fetchCurrentDownloads": {}}}}"#,
            #"{"id": 1, "request": {"launchMissiles": {}}}"#, #"{"id": -1, "request": {"downloads": {"fetchCurrentDownloads": {}}}}"#,
        ]
        for payload in payloads {
            #expect(throws: IPCError.self, "\(payload)") {
                try MessageCodec.decode(ClientMessage.self, from: Array(payload.utf8))
            }
        }
        do {
            _ = try MessageCodec.decode(ClientMessage.self, from: Array(#"{"id": 1}"#.utf8))
        } catch let error as IPCError {
            guard case let .malformedMessage(reason) = error else {
                Issue.record("expected a malformed message, got \(error)")
                return
            }
            #expect(reason.contains("request"))
            #expect(error.description.contains("closed"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("A message larger than the frame limit is refused before it is sent")
    func oversizedMessage() {
        let downloads = (0..<20).map { SampleMessages.descriptor(identifier: "download-\($0)") }
        let message = ServerMessage.response(id: 1, response: .downloads(downloads))
        #expect(throws: IPCError.self) { try MessageCodec.frame(message, maximumFrameSize: 1024) }
    }

    @Test("The answer for 10,000 downloads fits in one frame")
    func tenThousandDownloadsFit() throws {
        let downloads = (0..<10_000).map { SampleMessages.descriptor(identifier: "wwdc2023-\($0)") }
        let frame = try MessageCodec.frame(ServerMessage.response(id: 1, response: .downloads(downloads)))
        #expect(frame.count < WireProtocol.maximumFrameSize)
    }
}
