/*
Abstract:
Pins the protocol's bytes: every message case against a recorded frame, and the version against the recordings.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

/// The wire protocol as a contract.
///
/// The frames under `GoldenFrames/v<WireProtocol.version>/` are what this version of the protocol
/// sends. A change that alters any of them (a renamed case or field, a new key name, another date
/// format) fails here. If the change is meant, it is a new protocol: raise `WireProtocol.version`
/// and record the new folder with `RECORD_GOLDEN_FRAMES=1 swift test --filter GoldenFrame`. Recording
/// only ever adds frames (a new case) to the current version's folder; it never rewrites one. Build
/// from clean (`rm -rf .build`) after raising the version: an incremental build can keep the old
/// number inlined in other modules' copies of `Hello`'s default arguments.
@Suite("Golden frames")
struct GoldenFrameTests {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "GoldenFrames")
    static let folder = root.appending(path: "v\(WireProtocol.version)")
    static let isRecording = ProcessInfo.processInfo.environment["RECORD_GOLDEN_FRAMES"] == "1"

    @Test("Every message encodes to its recorded frame, byte for byte", arguments: SampleMessages.goldenFrames)
    func matchesRecording(frame: GoldenFrame) throws {
        let file = Self.folder.appending(path: "\(frame.name).json")
        let encoded = try frame.encode()
        if Self.isRecording, !FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try Data(encoded).write(to: file)
        }
        let recorded = try #require(
            try? [UInt8](Data(contentsOf: file)),
            "No frame recorded for \(frame.name); run RECORD_GOLDEN_FRAMES=1 swift test --filter GoldenFrame")
        // Compared as text so a failure shows both frames readably; equal text is equal bytes.
        #expect(
            String(decoding: encoded, as: UTF8.self) == String(decoding: recorded, as: UTF8.self),
            """
            \(frame.name) no longer encodes as protocol version \(WireProtocol.version) recorded it. \
            Undo the change, or raise WireProtocol.version and record the new version's frames.
            """)
        #expect(try frame.decodesToSameMessage(recorded), "\(frame.name)'s recorded frame decodes to another message")
    }

    @Test("The version in hello is the version whose frames are recorded")
    func versionMatchesFolder() throws {
        let versions = try FileManager.default.contentsOfDirectory(atPath: Self.root.path)
            .compactMap { $0.hasPrefix("v") ? Int($0.dropFirst()) : nil }
        #expect(
            versions.max() == WireProtocol.version,
            "GoldenFrames holds versions \(versions.sorted()) but the protocol is version \(WireProtocol.version)")
        for name in ["request.hello", "response.hello"] {
            let payload = try Data(contentsOf: Self.folder.appending(path: "\(name).json"))
            let object = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
            #expect(Self.protocolVersion(in: object) == WireProtocol.version, "\(name)")
        }
    }

    @Test("A client of another version can still say hello and read its refusal")
    func helloIsStableAcrossVersions() throws {
        // Bytes a version-2 client sends first; any later build must read them to refuse them.
        let oldHello = #"{"id":1,"request":{"hello":{"_0":{"bundleIdentifier":"com.example.old","processIdentifier":7,"protocolVersion":2,"role":"app"}}}}"#
        let message = try MessageCodec.decode(ClientMessage.self, from: Array(oldHello.utf8))
        guard case let .hello(hello) = message.request else {
            Issue.record("decoded \(message.request), not hello")
            return
        }
        #expect(hello.protocolVersion == 2)
        let refusal = ServerMessage.response(
            id: 1, response: .failure(.backgroundAssets(code: 55, message: "speaks protocol version 2")))
        let object = try JSONSerialization.jsonObject(with: Data(try MessageCodec.encode(refusal))) as? [String: Any]
        let response = (object?["response"] as? [String: Any])?["response"] as? [String: Any]
        #expect((response?["failure"] as? [String: Any])?["_0"] != nil, "the refusal changed shape")
    }

    @Test("Every case has a recording and every recording a case")
    func everyCaseRecorded() throws {
        let names = Set(SampleMessages.goldenFrames.map(\.name))
        #expect(names.count == SampleMessages.goldenFrames.count, "two samples share a name")
        let returned = "core.extensionCallReturned"
        let requests = ClientRequest.wireNames.filter { $0 != returned }.map { "request.\($0)" }
            + ExtensionCallResult.CodingKeys.allCases.map { "request.\(returned).\($0.rawValue)" }
        let expected = Set(
            requests
                + ServerResponse.CodingKeys.allCases.map { "response.\($0.rawValue)" }
                + ServerEvent.CodingKeys.allCases.filter { $0 != .extensionCall && $0 != .urlSessionEvent }.map { "event.\($0.rawValue)" }
                + ExtensionCall.CodingKeys.allCases.map { "event.extensionCall.\($0.rawValue)" }
                + BackgroundSessionEvent.CodingKeys.allCases.map { "event.urlSessionEvent.\($0.rawValue)" })
        #expect(names.symmetricDifference(expected).isEmpty, "cases and samples differ")
        let files = Set(
            try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
                .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) })
        #expect(
            files.symmetricDifference(expected).isEmpty,
            "recorded frames without a case: \(files.subtracting(expected).sorted())")
    }

    private static func protocolVersion(in object: [String: Any]) -> Int? {
        for value in object.values {
            if let nested = value as? [String: Any] {
                if let version = nested["protocolVersion"] as? Int { return version }
                if let found = protocolVersion(in: nested) { return found }
            }
        }
        return nil
    }
}
