/*
Abstract:
Tests of the protocol's own JSON codec against Foundation's, and against hostile payloads.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("The protocol's JSON")
struct WireJSONTests {
    /// What Foundation writes with the protocol's settings: the bytes the codec must match.
    static func foundationJSON(_ message: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(message))
    }

    /// Expects `payload` to decode to what Foundation decodes it to, or to fail where Foundation fails.
    static func expectDecodesAsFoundation<Message: Decodable & Equatable>(
        _ type: Message.Type, _ payload: [UInt8], _ why: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let ours = Result { try MessageCodec.decode(type, from: payload) }
        let foundations = Result { try foundationDecode(type, payload) }
        switch (ours, foundations) {
        case let (.success(mine), .success(theirs)): #expect(mine == theirs, "\(why)", sourceLocation: sourceLocation)
        case (.failure, .failure): break
        default: Issue.record("\(why): decoded \(ours), Foundation \(foundations)", sourceLocation: sourceLocation)
        }
    }

    static func foundationDecode<Message: Decodable>(_ type: Message.Type, _ payload: [UInt8]) throws -> Message {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(type, from: Data(payload))
    }

    @Test("Every sample message encodes to Foundation's bytes, and each side decodes the other's")
    func matchesFoundation() throws {
        for message in SampleMessages.clientMessages {
            let encoded = try MessageCodec.encode(message)
            #expect(encoded == (try Self.foundationJSON(message)), "\(message)")
            #expect(try Self.foundationDecode(ClientMessage.self, encoded) == message)
        }
        for message in SampleMessages.serverMessages {
            let encoded = try MessageCodec.encode(message)
            #expect(encoded == (try Self.foundationJSON(message)), "\(message)")
            #expect(try MessageCodec.decode(ServerMessage.self, from: Self.foundationJSON(message)) == message)
        }
    }

    @Test("Strings, numbers and dates are written as Foundation writes them", arguments: SampleMessages.hostileStrings)
    func scalarsMatchFoundation(hostile: RawText) throws {
        let string = hostile.text
        let control = (0..<0x20).map { Character(Unicode.Scalar($0)!) }
        let text = string + String(control) + "\u{7F}\u{10FFFF}"
        var descriptor = SampleMessages.descriptor(identifier: text)
        descriptor.headers = [text: text, "b": "2", "B": "3", "a": "1", "é": "4"]
        let times = [0, 1, -1.5, 0.1, 1e-7, 1_764_151_234.567, 1e21, 123_456_789_012_345_680, -0.0]
        for seconds in times {
            let entry = TraceEntry(
                time: Date(timeIntervalSince1970: seconds), from: "a", to: "b", event: text, detail: text)
            #expect(try MessageCodec.encode(entry) == (try Self.foundationJSON(entry)), "\(seconds)")
            #expect(try MessageCodec.decode(TraceEntry.self, from: MessageCodec.encode(entry)) == entry)
        }
        let message = ClientMessage(id: UInt64.max, request: .downloads(.schedule(download: descriptor)))
        #expect(try MessageCodec.encode(message) == (try Self.foundationJSON(message)))
        #expect(try MessageCodec.decode(ClientMessage.self, from: MessageCodec.encode(message)) == message)
    }

    /// Foundation's special types, should a message ever carry them.
    struct Special: Codable, Equatable {
        var url: URL
        var data: Data
        var dates: [Date]
        var optional: Date?
    }

    @Test("URLs, data and dates are written and read as JSONEncoder and JSONDecoder do")
    func specialTypes() throws {
        let value = Special(
            url: URL(string: "https://cdn.example.com/a b?x=1")!, data: Data([0, 1, 2, 250, 251]),
            dates: [Date(timeIntervalSince1970: 0.25), Date(timeIntervalSince1970: 1_764_151_391)], optional: nil)
        let encoded = try MessageCodec.encode(value)
        #expect(encoded == (try Self.foundationJSON(value)))
        #expect(try MessageCodec.decode(Special.self, from: encoded) == value)
        #expect(try Self.foundationDecode(Special.self, encoded) == value)
    }

    @Test("JSON written another way decodes: spaces, escapes, keys in any order, a surrogate pair")
    func acceptsAnyValidJSON() throws {
        let payload = #"""
             { "request" : { "downloads" : { "schedule" : { "download" : {
               "url" : "https:\/\/cdn.example.com\/a", "state" : 1, "priority" : -5, "kind" : "url",
               "isEssential" : false, "identifier" : "caf\u00e9 \ud83d\ude00\n", "headers" : { },
               "fileSize" : 1e3, "applicationGroupIdentifier" : "group.x", "uniqueIdentifier" : "u" } } } },
               "id" : 7 }
            """#
        let message = try MessageCodec.decode(ClientMessage.self, from: Array(payload.utf8))
        guard case let .downloads(.schedule(download)) = message.request else {
            Issue.record("decoded \(message)")
            return
        }
        #expect(message.id == 7)
        #expect(download.identifier == "café 😀\n")
        #expect(download.url == "https://cdn.example.com/a")
        #expect(download.fileSize == 1000)
        #expect(download.priority == -5)
    }

    @Test("A payload that is not strict JSON is refused, however it is broken")
    func refusesBrokenJSON() {
        let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let payloads: [[UInt8]] = [
            Array(nested.utf8), Array(#"{"id": 01, "request": {"downloads": {"fetchCurrentDownloads": {}}}}"#.utf8),
            Array(#"{"id": 1, "request": {"downloads": {"fetchCurrentDownloads": {}}}} trailing"#.utf8),
            Array(#"{"id": 1, "request": {"downloads": {"fetchCurrentDownloads": {}}},}"#.utf8),
            Array("{\"id\": 1, \"request\": {\"downloads\": {\"schedule\": {\"download\": {\"identifier\": \"a\u{01}b\"}}}}}".utf8),
            Array(#"{"id": 1, "request": {"downloads": {"schedule": {"download": {"identifier": "\ud800"}}}}}"#.utf8),
            [UInt8](#"{"id": 1, "request": {"x": ""#.utf8) + [0xFF, 0xFE] + Array(#""}}"#.utf8),
            Array(#"{"id": 1e999, "request": {"downloads": {"fetchCurrentDownloads": {}}}}"#.utf8),
            Array(#"{"id": -1, "request": {"downloads": {"fetchCurrentDownloads": {}}}}"#.utf8), Array("{".utf8), [],
        ]
        for payload in payloads {
            #expect(throws: IPCError.self, "\(String(decoding: payload.prefix(60), as: UTF8.self))") {
                try MessageCodec.decode(ClientMessage.self, from: payload)
            }
        }
    }

    @Test("A refusal names the field at fault, however deep")
    func errorsNameTheField() throws {
        var descriptor = String(decoding: try MessageCodec.encode(SampleMessages.descriptor()), as: UTF8.self)
        descriptor = descriptor.replacingOccurrences(of: #""fileSize":1234567890"#, with: #""fileSize":"big""#)
        let payload = #"{"id": 3, "request": {"downloads": {"schedule": {"download": \#(descriptor)}}}}"#
        #expect {
            try MessageCodec.decode(ClientMessage.self, from: Array(payload.utf8))
        } throws: { error in
            guard case let IPCError.malformedMessage(reason) = error else { return false }
            return reason.contains("request.downloads.schedule.download.fileSize") && reason.contains("Int")
        }
        let missing = #"{"id": 3, "request": {"downloads": {"schedule": {"download": {"identifier": "x"}}}}}"#
        #expect {
            try MessageCodec.decode(ClientMessage.self, from: Array(missing.utf8))
        } throws: { error in
            guard case let IPCError.malformedMessage(reason) = error else { return false }
            return reason.contains("missing key") && reason.contains("request.downloads.schedule.download")
        }
    }

    @Test("Many keys in one object decode, the last of equal keys winning")
    func manyKeys() throws {
        var descriptor = SampleMessages.descriptor()
        descriptor.headers = Dictionary(uniqueKeysWithValues: (0..<20_000).map { ("X-Header-\($0)", "\($0)") })
        let message = ClientMessage(id: 1, request: .downloads(.schedule(download: descriptor)))
        #expect(try MessageCodec.decode(ClientMessage.self, from: MessageCodec.encode(message)) == message)

        let duplicated = #"{"id": 1, "id": 2, "request": {"downloads": {"fetchCurrentDownloads": {}}}}"#
        #expect(try MessageCodec.decode(ClientMessage.self, from: Array(duplicated.utf8)).id == 2)
    }
}
