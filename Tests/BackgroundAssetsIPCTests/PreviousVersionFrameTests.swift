/*
Abstract:
The frames version 5 recorded, kept as the record of that protocol: its hello is still read, its other requests are not.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

/// What this version makes of the previous version's recorded frames.
///
/// The service speaks one version (the reason is in `WireProtocol`'s documentation): a version-5
/// client must still be able to say hello and be told, so its hello decodes; its other requests
/// are another protocol and do not. Version 6 changed requests only: every answer and event is
/// the bytes version 5 recorded.
@Suite("Version 5's recorded frames")
struct PreviousVersionFrameTests {
    static let previous = WireProtocol.version - 1
    static let folder = GoldenFrameTests.root.appending(path: "v\(previous)")

    static func frames(_ prefix: String) throws -> [(name: String, bytes: [UInt8])] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
            .map { ($0, [UInt8](try Data(contentsOf: folder.appending(path: $0)))) }
    }

    @Test("The previous version is 5, and its frames are still recorded")
    func recorded() throws {
        #expect(Self.previous == 5)
        // 57 requests, `extensionCallReturned` recorded once for each of its 5 results.
        #expect(try Self.frames("request.").count == 61)
    }

    @Test("Version 5's hello still decodes, with its version, so the service can refuse it by name")
    func helloDecodes() throws {
        let bytes = try #require(try Self.frames("request.hello.json").first?.bytes)
        let message = try MessageCodec.decode(ClientMessage.self, from: bytes)
        guard case let .hello(hello) = message.request else {
            Issue.record("version 5's hello decoded as \(message.request)")
            return
        }
        #expect(hello.protocolVersion == 5)
        #expect(hello.bundleIdentifier == "com.example.sessions")
    }

    @Test("Every other request version 5 recorded is refused as malformed")
    func otherRequestsRefused() throws {
        let requests = try Self.frames("request.").filter { $0.name != "request.hello.json" }
        #expect(!requests.isEmpty)
        for frame in requests {
            #expect(throws: IPCError.self, "\(frame.name) decoded as a version-\(WireProtocol.version) request") {
                try MessageCodec.decode(ClientMessage.self, from: frame.bytes)
            }
        }
    }

    @Test("Answers and events are the bytes version 5 recorded; only hello's version differs")
    func serverMessagesUnchanged() throws {
        let current = GoldenFrameTests.folder
        for frame in try Self.frames("response.") + Self.frames("event.") {
            let now = try [UInt8](Data(contentsOf: current.appending(path: frame.name)))
            let then = frame.name == "response.hello.json"
                ? Array(String(decoding: frame.bytes, as: UTF8.self)
                    .replacingOccurrences(of: "\"protocolVersion\":5", with: "\"protocolVersion\":6").utf8)
                : frame.bytes
            #expect(now == then, "\(frame.name) changed between version 5 and 6")
        }
    }
}
