/*
Abstract:
Tests for reading a manifest as it arrives: malformed, mistyped and hostile input, and pieces.
*/

import Foundation
import SessionKit
import TestSupport
import Testing

@Suite("Manifest reader")
struct ManifestReaderTests {
    static let sha = String(repeating: "0f", count: 32)

    /// A session's JSON with one field replaced by a literal (`nil` removes it).
    static func session(_ id: String, _ field: String? = nil, _ literal: String? = nil) -> String {
        var fields: [(String, String)] = [
            ("id", "\"\(id)\""), ("title", "\"Session \(id)\""), ("url", "\"sessions/\(id).mp4\""),
            ("fileSize", "1024"), ("sha256", "\"\(sha)\""), ("essential", "false"),
        ]
        if let field {
            fields.removeAll { $0.0 == field }
            if let literal { fields.append((field, literal)) }
        }
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    static func manifest(_ sessions: [String], version: String = "1") -> Data {
        Data("{\"version\": \(version), \"sessions\": [\(sessions.joined(separator: ",\n"))]}".utf8)
    }

    static func reason(_ data: Data) -> String? {
        do {
            _ = try Manifest.decode(data, source: "manifest.json")
            return nil
        } catch let SessionKitError.malformedManifest(path, reason) {
            #expect(path == "manifest.json")
            return reason
        } catch {
            Issue.record("expected a malformed manifest, got \(error)")
            return nil
        }
    }

    @Test("Every truncation of a manifest is refused as malformed, none trapped")
    func refusesEveryTruncation() throws {
        let data = Self.manifest([Self.session("a"), Self.session("b", "title", "\"caf\\u00e9\"")])
        #expect(try Manifest.decode(data, source: "whole").sessions.count == 2)
        for length in 0..<data.count {
            let reason = Self.reason(data.prefix(length))
            #expect(reason?.contains("not valid JSON") == true, "cut at \(length): \(String(describing: reason))")
        }
    }

    @Test(
        "A value of the wrong kind is named by its path",
        arguments: [
            ("[]", "the top level should be an object, not an array"),
            (#"{"version": "3", "sessions": []}"#, "version should be a whole number, not a string"),
            (#"{"version": 3, "sessions": {}}"#, "sessions should be an array, not an object"),
            (#"{"version": 3, "sessions": [1]}"#, "sessions[0] should be an object, not a number"),
            (#"{"version": 3, "sessions": [\#(ManifestReaderTests.session("a", "essential", "\"yes\""))]}"#,
             "sessions[0].essential should be true or false, not a string"),
            (#"{"version": 3, "sessions": [\#(ManifestReaderTests.session("a")), \#(ManifestReaderTests.session("b", "title", "[]"))]}"#,
             "sessions[1].title should be a string, not an array"),
            (#"{"version": 3, "sessions": [\#(ManifestReaderTests.session("a", "fileSize", "1.5"))]}"#,
             "sessions[0].fileSize should be a whole number, not 1.5"),
        ]
    )
    func namesWrongKinds(json: String, expected: String) {
        #expect(Self.reason(Data(json.utf8)) == expected)
    }

    @Test("Hostile sizes are refused with a reason, not trapped or held")
    func refusesHostileSizes() throws {
        let huge = Self.reason(Self.manifest([Self.session("a", "fileSize", "99999999999999999999")]))
        #expect(huge == "sessions[0].fileSize should be a whole number, and 99999999999999999999 does not fit in 64 bits")

        let long = Self.reason(Self.manifest([Self.session("a", "fileSize", String(repeating: "9", count: 100_000))]))
        #expect(long?.contains("a number longer than 64 characters at line 1") == true, "\(String(describing: long))")

        // Nesting in a field nobody reads is still walked, within a depth the stack can take.
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let nested = Self.reason(Data("{\"version\": 1, \"extra\": \(deep), \"sessions\": []}".utf8))
        #expect(nested?.contains("nested more than 256 levels deep") == true, "\(String(describing: nested))")

        let longIdentifier = String(repeating: "x", count: 10_000) + "/"
        do {
            _ = try Manifest.decode(Self.manifest([Self.session(longIdentifier)]), source: "manifest.json")
            Issue.record("an identifier with a slash was accepted")
        } catch let SessionKitError.invalidField(_, session, field, _) {
            #expect(field == "id")
            #expect(session == "\"" + String(repeating: "x", count: 128) + "…\"", "the message names it, cut short")
        }
    }

    @Test("A field given twice is refused, in a session or at the top")
    func refusesRepeatedFields() {
        let twice = Self.session("a").replacingOccurrences(of: "\"fileSize\": 1024", with: "\"fileSize\": 1, \"fileSize\": 2")
        #expect(Self.reason(Self.manifest([twice])) == "sessions[0].fileSize appears twice")
        #expect(Self.reason(Data(#"{"version": 1, "sessions": [], "version": 2}"#.utf8)) == "`version` appears twice")
    }

    @Test("A duplicate identifier far into a large manifest is still found")
    func findsLateDuplicates() {
        let sessions = (0..<2_000).map { Self.session("s\($0)") } + [Self.session("s17")]
        do {
            _ = try Manifest.decode(Self.manifest(sessions), source: "manifest.json")
            Issue.record("a duplicate was accepted")
        } catch {
            #expect(error as? SessionKitError == .duplicateSessionIdentifier(path: "manifest.json", identifier: "s17"))
        }
    }

    @Test("null is a missing field, and fields the format does not have are passed over")
    func readsNullAsMissingAndSkipsUnknownFields() throws {
        let extra = Self.session("a", "thumbnailURL", "null")
            .replacingOccurrences(of: "{", with: #"{"chapters": [{"at": 1.5e3, "name": "\u00e9"}, null, true], "#)
        let manifest = try Manifest.decode(
            Data(#"{"future": {"x": [1, 2]}, "sessions": [\#(extra)], "version": 2}"#.utf8), source: "m")
        #expect(manifest.version == 2)
        #expect(manifest.sessions.map(\.id) == ["a"])
        #expect(manifest.sessions[0].thumbnailURL == nil)

        do {
            _ = try Manifest.decode(Self.manifest([Self.session("a", "title", "null")]), source: "m")
            Issue.record("a null title was accepted")
        } catch let SessionKitError.invalidField(_, session, field, reason) {
            #expect(session == "\"a\"" && field == "title" && reason == "it is missing")
        }
        #expect(throws: SessionKitError.invalidField(path: "m", session: nil, field: "sessions", reason: "it is missing")) {
            try Manifest.decode(Data(#"{"version": 1, "sessions": null}"#.utf8), source: "m")
        }
    }

    @Test("A syntax mistake is reported before a mistyped field earlier in the file")
    func syntaxComesFirst() {
        let data = Data("{\"version\": 1, \"sessions\": [\(Self.session("a", "fileSize", "\"big\"")),\n  {\"id\": }]}".utf8)
        #expect(Self.reason(data) == "it is not valid JSON: unexpected character at line 2, column 10")
        // Without the mistake, the field is what is reported.
        let mistyped = Data("{\"version\": 1, \"sessions\": [\(Self.session("a", "fileSize", "\"big\""))]}".utf8)
        #expect(Self.reason(mistyped) == "sessions[0].fileSize should be a whole number, not a string")
    }

    @Test("Escapes, surrogate pairs and text beyond ASCII read as JSONSerialization reads them")
    func readsStringsAsJSONSerialization() throws {
        let titles = [#"Tab\tquote\" slash\/ back\\"#, #"caf\u00e9 \ud83d\ude00 naïve 🎬"#, #"\u0000\u001f"#]
        for title in titles {
            let data = Self.manifest([Self.session("a", "title", "\"\(title)\"")])
            let expected = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
            let sessions = try #require(expected["sessions"] as? [[String: Any]])
            #expect(try Manifest.decode(data, source: "m").sessions[0].title == sessions[0]["title"] as? String)
        }
        for bad in [#"\x"#, #"\ud83d"#, #"\ud83dx"#, #"\u12"#, "tab\there"] {
            let reason = Self.reason(Self.manifest([Self.session("a", "title", "\"\(bad)\"")]))
            #expect(reason?.hasPrefix("it is not valid JSON: ") == true, "\(bad): \(String(describing: reason))")
        }
    }

    @Test("A manifest of many pieces reads the same from a file and from memory, and back from its own bytes")
    func readsAcrossPieces() async throws {
        let sessions = (0..<3_000).map { index in
            Session(
                id: "wwdc-\(index)", title: "Session \(index) — “quoted” \\ \u{1}", url: URL(string: "https://cdn.example.com/\(index).mp4")!,
                fileSize: index * 1_000, sha256: Self.sha, essential: index % 7 == 0,
                thumbnailURL: index % 3 == 0 ? URL(string: "https://cdn.example.com/\(index).png") : nil)
        }
        let manifest = Manifest(version: 9, sessions: sessions)
        let data = try manifest.encoded()
        #expect(data.count > 8 * 65_536, "the manifest spans many pieces")
        #expect(try Manifest.decode(data, source: "m") == manifest)
        try await withTemporaryDirectory { folder in
            let url = folder.appending(path: "manifest.json")
            try manifest.save(to: url)
            #expect(try Data(contentsOf: url) == data)
            let loaded = try Manifest.load(from: url)
            #expect(loaded == manifest)
            #expect(loaded.session(withID: "wwdc-2999")?.fileSize == 2_999_000)
        }
    }

    @Test("An empty file and a directory are refused with their reasons")
    func refusesEmptyFilesAndFolders() async throws {
        #expect(Self.reason(Data()) == "it is not valid JSON: unexpected end of the file at line 1, column 1")
        try await withTemporaryDirectory { folder in
            do {
                _ = try Manifest.load(from: folder)
                Issue.record("a folder was read as a manifest")
            } catch let SessionKitError.fileUnreadable(path, _) {
                #expect(path == folder.path)
            }
        }
    }
}
