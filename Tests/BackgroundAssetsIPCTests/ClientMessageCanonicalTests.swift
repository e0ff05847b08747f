/*
Abstract:
Tests that the requests written and read field by field are the bytes and values of the Codable path, and that any other shape takes that path.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Requests written and read field by field")
struct ClientMessageCanonicalTests {
    /// Every request written and read field by field, carrying `text` wherever a string goes.
    static func messages(text: String) -> [ClientMessage] {
        var download = SampleMessages.descriptor(identifier: text)
        download.headers = [text: text, "Range": "bytes=0-"]
        download.url = text
        let bare = DownloadDescriptor(identifier: "a", uniqueIdentifier: "b", url: "http://127.0.0.1/a", applicationGroupIdentifier: "g")
        return [download, bare].flatMap { download -> [ClientMessage] in
            [
                ClientMessage(id: 1, request: .downloads(.schedule(download: download))),
                ClientMessage(id: UInt64.max, request: .downloads(.startForeground(download: download))),
            ]
        } + [
            ClientMessage(id: 0, request: .downloads(.acknowledgeDelivery(deliveryID: UInt64.max))),
            ClientMessage(id: 2, request: .core(.extensionCallReturnedPart(callID: UInt64.max, downloads: [download, bare]))),
            ClientMessage(id: 3, request: .core(.extensionCallReturned(callID: 5, result: .downloads([bare, download])))),
            ClientMessage(id: 4, request: .core(.extensionCallReturned(callID: 6, result: .downloads([])))),
            ClientMessage(id: UInt64.max, request: .core(.extensionCallReturned(callID: UInt64.max, result: .done))),
        ]
    }

    @Test("Each request made for every download is written and read field by field, as Foundation writes and reads it",
          arguments: SampleMessages.hostileStrings)
    func canonicalRequests(hostile: RawText) throws {
        for message in Self.messages(text: hostile.text) {
            #expect(message.isWrittenFieldByField, "\(message) is written through the Codable path")
            let payload = try MessageCodec.encode(message)
            #expect(payload == (try WireJSONTests.foundationJSON(message)), "\(message)")
            #expect(ClientMessage.isReadFieldByField(payload), "\(message) is read through the Codable path")
            #expect(try MessageCodec.decode(ClientMessage.self, from: payload) == message)
        }
    }

    @Test("Every other request is written and read through the Codable path, as Foundation writes and reads it")
    func otherRequestsTakeTheCodablePath() throws {
        for message in SampleMessages.clientMessages where !Self.isHot(message.request) {
            #expect(!message.isWrittenFieldByField, "\(message)")
            let payload = try MessageCodec.encode(message)
            #expect(payload == (try WireJSONTests.foundationJSON(message)), "\(message)")
            #expect(!ClientMessage.isReadFieldByField(payload), "\(message)")
            #expect(try MessageCodec.decode(ClientMessage.self, from: payload) == message)
        }
    }

    private static func isHot(_ request: ClientRequest) -> Bool {
        switch request {
        case .downloads(.schedule), .downloads(.startForeground), .downloads(.acknowledgeDelivery),
             .core(.extensionCallReturnedPart), .core(.extensionCallReturned(_, .downloads)),
             .core(.extensionCallReturned(_, .done)): true
        default: false
        }
    }

    /// Payloads in another shape than clients write, each with why.
    static let otherShapes: [(String, String)] = [
        (#"{"id":1,"request":{"downloads":{"startForeground":{"download":DOWNLOAD,"extra":1}}}}"#, "a field added"),
        (#"{"id":1,"request":{"downloads":{"startForeground":{}}}}"#, "a field missing"),
        (#"{"id":1,"request":{"downloads":{"schedule":{"download":DOWNLOAD,"download":DOWNLOAD}}}}"#, "a field repeated"),
        (#"{"id":"1","request":{"downloads":{"acknowledgeDelivery":{"deliveryID":2}}}}"#, "an id that is a string"),
        (#"{"id":1.0,"request":{"downloads":{"acknowledgeDelivery":{"deliveryID":2}}}}"#, "an id written with a fraction"),
        (#"{"id":-1,"request":{"downloads":{"acknowledgeDelivery":{"deliveryID":2}}}}"#, "a negative id"),
        (#"{"id":1,"request":{"downloads":{"acknowledgeDelivery":{"deliveryID":null}}}}"#, "a null delivery"),
        (#"{"id":1,"request":{"downloads":{"acknowledgeDelivery":{"deliveryID":2}},"tool":{}}}"#, "two families at once"),
        (#"{"id":1,"request":{"downloads":{"acknowledgeDelivery":{"deliveryID":2},"schedule":{"download":DOWNLOAD}}}}"#, "two requests at once"),
        (#"{"id":1,"request":{"downloads":{"acknowledgeDelivery":{"deliveryID":2}}},"id":1}"#, "an id repeated"),
        (#"{"request":{"downloads":{"acknowledgeDelivery":{"deliveryID":2}}}}"#, "no id"),
        (#"{"id":1,"request":{"downloads":{"releaseExclusiveControl":{}}}}"#, "another request"),
        (#"{"id":1,"request":{"downloads":{"schedule":{"download":DOWNLOAD_STATE_99}}}}"#, "a download in an unknown state"),
        (#"{"id":1,"request":{"core":{"extensionCallReturnedPart":{"callID":2,"downloads":[DOWNLOAD,DOWNLOAD_STATE_99]}}}}"#,
         "a part with one download in an unknown state"),
        (#"{"id":1,"request":{"core":{"extensionCallReturnedPart":{"callID":2,"downloads":DOWNLOAD}}}}"#, "a part of one download, not a list"),
        (#"{"id":1,"request":{"core":{"extensionCallReturned":{"callID":2,"result":{"downloads":{"downloads":[DOWNLOAD],"more":1}}}}}}"#,
         "an answer with a field added"),
        (#"{"id":1,"request":{"core":{"extensionCallReturned":{"callID":2,"result":{"done":{"x":1}}}}}}"#, "a return of nothing with a member"),
        (#"{"id":1,"request":{"core":{"extensionCallReturned":{"callID":2,"result":{"challengeAnswer":{}}}}}}"#, "another kind of return"),
        (#"{"id":1,"request":{"core":{"fetchStatus":{}}}}"#, "another request of the family"),
    ]

    @Test("A request in any other shape decodes as Foundation decodes it, or fails as it fails")
    func otherShapesTakeTheCodablePath() throws {
        let download = String(decoding: try MessageCodec.encode(SampleMessages.descriptor(identifier: "a")), as: UTF8.self)
        #expect(download.contains(#""state":1"#))
        let unknownState = download.replacingOccurrences(of: #""state":1"#, with: #""state":99"#)
        for (shape, why) in Self.otherShapes {
            let payload = shape.replacingOccurrences(of: "DOWNLOAD_STATE_99", with: unknownState)
                .replacingOccurrences(of: "DOWNLOAD", with: download)
            let bytes = Array(payload.utf8)
            WireJSONTests.expectDecodesAsFoundation(ClientMessage.self, bytes, why)
            #expect(ClientMessage.isReadFieldByField(bytes) == (why == "an id written with a fraction"), "\(why)")
        }
    }
}
