/*
Abstract:
Tests that the messages written and read field by field are the bytes and values of the Codable path, and that any other shape takes that path.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Messages written and read field by field")
struct ServerMessageCanonicalTests {
    /// Every message read field by field, carrying `text` wherever a string goes.
    static func messages(text: String) -> [ServerMessage] {
        var download = SampleMessages.descriptor(identifier: text)
        download.headers = [text: text, "Range": "bytes=0-"]
        download.applicationGroupIdentifier = text
        var bare = DownloadDescriptor(identifier: "a", uniqueIdentifier: "b", url: "http://127.0.0.1/a", applicationGroupIdentifier: "g")
        bare.state = .finished
        return [download, bare].flatMap { download -> [ServerMessage] in
            [
                .event(.didBegin(download: download)), .event(.didPause(download: download)),
                .event(.didWriteBytes(download: download, bytesWritten: 19_464, totalBytesWritten: Int64.max, totalBytesExpectedToWrite: -1)),
                .event(.finished(deliveryID: UInt64.max, download: download, filePath: text)),
                .response(id: 7, response: .download(download)), .response(id: UInt64.max, response: .done),
                .event(.extensionCall(callID: UInt64.max, call: Self.notice(download, text: text))),
            ]
        }
    }

    /// The failed-download notice an install sends the extension for a download it refuses.
    static func notice(_ download: DownloadDescriptor, text: String) -> ExtensionCall {
        .failed(download: download, failure: WireFailure(domain: text, code: Int.min, message: text))
    }

    @Test("A failed-download notice is written and read field by field on its own, as the extension's backlog keeps it", arguments: SampleMessages.hostileStrings)
    func canonicalNotice(hostile: RawText) throws {
        var download = SampleMessages.descriptor(identifier: hostile.text)
        download.applicationGroupIdentifier = hostile.text
        for call in [Self.notice(download, text: hostile.text), .failed(download: download, failure: WireFailure(domain: "d", code: 7, message: ""))] {
            #expect(call.isWrittenFieldByField, "\(call) is written through the Codable path")
            let payload = try MessageCodec.encode(call)
            #expect(payload == (try WireJSONTests.foundationJSON(call)), "\(call)")
            #expect(ExtensionCall.isReadFieldByField(payload), "\(call) is read through the Codable path")
            #expect(try MessageCodec.decode(ExtensionCall.self, from: payload) == call)
            #expect(try WireJSONTests.foundationDecode(ExtensionCall.self, payload) == call)
        }
        for other in [ExtensionCall.willTerminate, .finished(download: download, filePath: hostile.text)] {
            #expect(!other.isWrittenFieldByField, "\(other)")
            #expect(try MessageCodec.encode(other) == WireJSONTests.foundationJSON(other), "\(other)")
        }
    }

    @Test("Each message the service sends for every download is read field by field, as Foundation reads it", arguments: SampleMessages.hostileStrings)
    func canonicalMessages(hostile: RawText) throws {
        for message in Self.messages(text: hostile.text) {
            let payload = try MessageCodec.encode(message)
            #expect(ServerMessage.isReadFieldByField(payload), "\(message) takes the Codable path")
            #expect(try MessageCodec.decode(ServerMessage.self, from: payload) == message)
            #expect(try WireJSONTests.foundationDecode(ServerMessage.self, payload) == message)
        }
    }

    @Test("Each message the service sends for every download is written field by field, as Foundation writes it", arguments: SampleMessages.hostileStrings)
    func canonicalBytes(hostile: RawText) throws {
        for message in Self.messages(text: hostile.text) {
            #expect(message.isWrittenFieldByField, "\(message) takes the Codable path")
            #expect(try MessageCodec.encode(message) == WireJSONTests.foundationJSON(message), "\(message)")
        }
    }

    @Test("Every other message is written through the Codable path")
    func otherMessagesTakeTheCodablePath() throws {
        let download = SampleMessages.descriptor(identifier: "a")
        let others: [ServerMessage] = [
            .event(.failed(download: download, failure: WireFailure(domain: "d", code: 1, message: "m"))),
            .event(.expireTask(taskID: 3)), .event(.urlSessionDetached(session: "s")),
            .response(id: 1, response: .downloads([download])), .response(id: 2, response: .exclusiveControlGranted),
            .response(id: 3, response: .failure(WireFailure(domain: "d", code: 2, message: "m"))),
        ]
        for message in others {
            #expect(!message.isWrittenFieldByField, "\(message)")
            #expect(try MessageCodec.encode(message) == WireJSONTests.foundationJSON(message), "\(message)")
        }
    }

    /// Payloads in another shape than the service writes, each with why.
    static let otherShapes: [(String, String)] = [
        (#"{"event":{"event":{"didBegin":{"download":DOWNLOAD,"extra":1}}}}"#, "a field added"),
        (#"{"event":{"event":{"didBegin":{}}}}"#, "a field missing"),
        (#"{"event":{"event":{"didBegin":{"download":DOWNLOAD,"download":DOWNLOAD}}}}"#, "a field repeated"),
        (#"{"response":{"id":"7","response":{"done":{}}}}"#, "an id that is a string"),
        (#"{"response":{"id":7.0,"response":{"done":{}}}}"#, "an id written with a fraction"),
        (#"{"response":{"id":-7,"response":{"done":{}}}}"#, "a negative id"),
        (#"{"response":{"id":7,"response":{"done":{"x":1}}}}"#, "done with a member"),
        (#"{"response":{"id":7,"response":{"exclusiveControlGranted":{}}}}"#, "another answer"),
        (#"{"event":{"event":{"didWriteBytes":{"download":DOWNLOAD,"bytesWritten":1,"totalBytesWritten":1e3,"totalBytesExpectedToWrite":null}}}}"#, "a null total"),
        (#"{"event":{"event":{"finished":{"deliveryID":1,"download":DOWNLOAD,"filePath":null}}}}"#, "a null path"),
        (#"{"event":{"event":{"didBegin":{"download":DOWNLOAD}},"event2":1}}"#, "a second member beside the event"),
        (#"{"event":{"event":{"didBegin":{"download":DOWNLOAD}}},"response":{"id":1,"response":{"done":{}}}}"#, "two kinds at once"),
        (#"{"event":{"event":{"extensionCall":{"call":{"failed":{"download":DOWNLOAD,"failure":{"code":"1","domain":"d","message":"m"}}},"callID":1}}}}"#, "a failure's code that is a string"),
        (#"{"event":{"event":{"extensionCall":{"call":{"failed":{"download":DOWNLOAD,"failure":{"code":1,"domain":"d","message":null}}},"callID":1}}}}"#, "a failure's null message"),
        (#"{"event":{"event":{"extensionCall":{"call":{"failed":{"download":DOWNLOAD,"failure":{"code":1,"domain":"d","message":"m","x":1}}},"callID":1}}}}"#, "a failure's field added"),
        (#"{"event":{"event":{"extensionCall":{"call":{"failed":{"download":DOWNLOAD}},"callID":1}}}}"#, "a notice without its failure"),
        (#"{"event":{"event":{"extensionCall":{"call":{"willTerminate":{}},"callID":1}}}}"#, "another call"),
    ]

    /// The descriptor's JSON with one field changed, for shapes inside a download.
    static let downloadShapes: [(String, String)] = [
        (#""state":1"#, #""state":99"#), (#""state":1"#, #""state":"1""#), (#""kind":"url""#, #""kind":"other""#),
        (#""isEssential":true"#, #""isEssential":1"#), (#""fileSize":1234567890"#, #""fileSize":1e40"#),
        (#""headers":{"#, #""headers":{"Range":"bytes=0-","#), (#""priority":-1000"#, #""priority":-1000.5"#),
        (#""url":"#, #""url2":"x","url":"#),
    ]

    @Test("A payload in any other shape decodes as Foundation decodes it, or fails as it fails")
    func otherShapesTakeTheCodablePath() throws {
        let download = String(decoding: try MessageCodec.encode(SampleMessages.descriptor(identifier: "a")), as: UTF8.self)
        var payloads = Self.otherShapes.map { ($0.0.replacingOccurrences(of: "DOWNLOAD", with: download), $0.1) }
        for (original, changed) in Self.downloadShapes {
            #expect(download.contains(original), "the sample descriptor writes \(original)")
            let changedDownload = download.replacingOccurrences(of: original, with: changed)
            payloads.append((#"{"event":{"event":{"didBegin":{"download":\#(changedDownload)}}}}"#, "\(changed) in a download"))
        }
        for (payload, why) in payloads {
            let bytes = Array(payload.utf8)
            WireJSONTests.expectDecodesAsFoundation(ServerMessage.self, bytes, why)
            // A whole number written with a fraction, and one more header, are still the usual shape.
            let isUsualShape = why == "an id written with a fraction" || why.hasPrefix(#""headers""#)
            #expect(ServerMessage.isReadFieldByField(bytes) == isUsualShape, "\(why)")
        }
    }
}
