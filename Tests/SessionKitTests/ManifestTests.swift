/*
Abstract:
Tests for loading, validating and saving the manifest.
*/

import Foundation
import SessionKit
import TestSupport
import Testing

@Suite("Manifest")
struct ManifestTests {
    static let sha = String(repeating: "ab", count: 32)

    /// A manifest whose first session is patched with `overrides` (a `nil` value removes the key).
    static func json(_ overrides: [String: Any?] = [:], version: Any = 3) throws -> Data {
        var session: [String: Any] = [
            "id": "wwdc23-10108", "title": "What's new in Background Assets",
            "url": "sessions/wwdc23-10108.mp4", "fileSize": 1024, "sha256": sha, "essential": true,
        ]
        for (key, value) in overrides { session[key] = value ?? nil }
        let other: [String: Any] = [
            "id": "wwdc23-10109", "title": "Other", "url": "https://cdn.example.com/b.mp4",
            "fileSize": 0, "sha256": sha.uppercased(), "essential": false,
        ]
        return try JSONSerialization.data(withJSONObject: ["version": version, "sessions": [session, other]])
    }

    static func decodeError(_ data: Data) -> SessionKitError? {
        do {
            _ = try Manifest.decode(data, source: "manifest.json", baseURL: nil)
            return nil
        } catch {
            return error as? SessionKitError
        }
    }

    @Test("Relative session URLs resolve against the manifest's own URL")
    func resolvesRelativeURLs() throws {
        let base = URL(string: "http://127.0.0.1:4242/manifest.json")!
        let manifest = try Manifest.decode(Self.json(), source: "test", baseURL: base)
        #expect(manifest.version == 3)
        #expect(manifest.sessions[0].url.absoluteString == "http://127.0.0.1:4242/sessions/wwdc23-10108.mp4")
        #expect(manifest.sessions[1].url.absoluteString == "https://cdn.example.com/b.mp4")
        #expect(manifest.sessions[1].sha256 == Self.sha, "hex digests are normalised to lowercase")
        #expect(manifest.session(forDownloadIdentifier: "wwdc23-10108")?.essential == true)
    }

    @Test("Without a base URL, relative session URLs stay relative")
    func keepsRelativeURLsWithoutBase() throws {
        let manifest = try Manifest.decode(Self.json(), source: "test")
        #expect(manifest.sessions[0].url.absoluteString == "sessions/wwdc23-10108.mp4")
        #expect(manifest.sessions[0].fileName == "wwdc23-10108.mp4")
    }

    /// Each case replaces one field of the first session.
    /// - Parameters:
    ///   - field: The session field to replace.
    ///   - literal: Its new value as a JSON literal, or `nil` to remove the field.
    @Test(
        "An invalid session names the field and the session",
        arguments: [
            ("id", #""""#), ("id", #""../../etc/passwd""#), ("id", #""a b""#), ("id", #"".hidden""#),
            ("fileSize", "-1"), ("url", #""ftp://example.com/a.mp4""#), ("url", #""file:///etc/passwd""#),
            ("url", #""https://""#), ("sha256", #""xyz""#), ("sha256", "\"\(String(repeating: "g", count: 64))\""),
            ("title", nil), ("url", nil),
        ] as [(String, String?)]
    )
    func rejectsInvalidSession(field: String, literal: String?) throws {
        let value = try literal.map { try JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed) }
        let overrides: [String: Any?] = [field: value]
        let error = Self.decodeError(try Self.json(overrides))
        guard case let .invalidField(path, session, reportedField, _) = error else {
            Issue.record("Expected an invalid field error, got \(String(describing: error))")
            return
        }
        #expect(path == "manifest.json")
        #expect(reportedField == field)
        #expect(session != nil)
        #expect(error!.description.contains("`\(field)`"))
    }

    @Test("A duplicate session id is refused by name")
    func rejectsDuplicateIdentifiers() throws {
        let error = Self.decodeError(try Self.json(["id": "wwdc23-10109"]))
        #expect(error == .duplicateSessionIdentifier(path: "manifest.json", identifier: "wwdc23-10109"))
    }

    @Test("A missing version or wrongly typed field is reported, not trapped")
    func rejectsMalformedShapes() throws {
        let noVersion = try JSONSerialization.data(withJSONObject: ["sessions": []])
        #expect(Self.decodeError(noVersion) == .invalidField(
            path: "manifest.json", session: nil, field: "version", reason: "it is missing"))

        guard case let .malformedManifest(_, reason) = Self.decodeError(try Self.json(["fileSize": "big"])) else {
            Issue.record("A string file size should be a malformed manifest")
            return
        }
        #expect(reason.contains("fileSize"))
        let truncated = Self.decodeError(Data("{\"version\": 1, \"sessions\": [".utf8))
        guard case .malformedManifest = truncated else {
            Issue.record("Truncated JSON should be a malformed manifest")
            return
        }
        // Foundation's reason is a sentence of its own: quoted, it keeps no full stop to double ours.
        #expect(!(truncated?.description.contains("..") ?? true), "\(String(describing: truncated))")
        #expect(SessionKitError.malformedManifest(path: "m.json", reason: "The data is not valid JSON.").description
            == "The manifest m.json is not valid: The data is not valid JSON. Fix the JSON or serve a manifest that "
            + "matches the format in Docs/.")
    }

    #if os(Linux)
    @Test("A manifest that is not UTF-8, or not JSON, is reported with the line and column of the mistake")
    func syntaxErrorsHaveAPosition() throws {
        let notUTF8 = Data("{\n  \"version\": 1,\n  \"sessions\": [\"".utf8) + Data([0xFF, 0xFE]) + Data("\"]\n}".utf8)
        guard case let .malformedManifest(_, reason) = Self.decodeError(notUTF8) else {
            Issue.record("bytes that are not UTF-8 should be a malformed manifest")
            return
        }
        #expect(reason.contains("not valid JSON"), "\(reason)")
        #expect(reason.contains("line 3, column"), "\(reason)")
        guard case let .malformedManifest(_, stray) = Self.decodeError(Data("{\"version\": 1} x".utf8)) else {
            Issue.record("text after the manifest should be a malformed manifest")
            return
        }
        #expect(stray.contains("line 1, column 16"), "\(stray)")
    }
    #endif

    @Test("Saving is atomic and loading gives back the same manifest")
    func savesAndLoads() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appending(path: "nested/manifest.json")
            let manifest = try Manifest.decode(Self.json(), source: "test")
            try manifest.save(to: url)
            #expect(try Manifest.load(from: url) == manifest)
            #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
                == ["manifest.json"], "no temporary file is left behind")

            var newer = manifest
            newer.version = 4
            try newer.save(to: url)
            #expect(try Manifest.load(from: url).version == 4)
        }
    }

    @Test("Equal manifests encode to identical bytes with sorted keys")
    func encodesDeterministically() throws {
        let manifest = try Manifest.decode(Self.json(), source: "test")
        let first = try manifest.encoded()
        let second = try Manifest.decode(first, source: "again").encoded()
        #expect(first == second)
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.contains("\"url\" : \"sessions/wwdc23-10108.mp4\""), "relative URLs are written as given")
        #expect(text.range(of: "\"essential\"")!.lowerBound < text.range(of: "\"fileSize\"")!.lowerBound)
    }

    @Test("Loading a missing file says which file")
    func reportsMissingFile() {
        let url = URL(fileURLWithPath: "/nonexistent/manifest.json")
        #expect {
            try Manifest.load(from: url)
        } throws: { error in
            guard case let .fileUnreadable(path, _) = error as? SessionKitError else { return false }
            return path == url.path
        }
    }
}
