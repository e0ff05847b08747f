/*
Abstract:
Tests that the manifest's own writer gives JSONEncoder's bytes, and that a streamed save is atomic.
*/

import Foundation
import SessionKit
import TestSupport
import Testing

@Suite("Manifest writer")
struct ManifestWriterTests {
    static func encoderBytes(_ manifest: Manifest) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(manifest)
    }

    static let sha = String(repeating: "9a", count: 32)

    @Test("encoded() is JSONEncoder's bytes, for every kind of string and an empty list")
    func matchesJSONEncoder() throws {
        let titles = [
            "Plain", "quote \" back \\ slash / tab \t newline \n return \r", "\u{0}\u{1}\u{8}\u{b}\u{c}\u{1f}\u{7f}",
            "café — naïve 🎬 \u{2028}", "",
        ]
        let sessions = titles.enumerated().map { index, title in
            Session(id: "s-\(index)", title: title, url: URL(string: index == 0 ? "sessions/a.mp4" : "https://h.example/\(index)?q=1&r=/x")!,
                    fileSize: index * 1_234_567_890_123, sha256: Self.sha, essential: index.isMultiple(of: 2),
                    thumbnailURL: index == 1 ? URL(string: "https://h.example/t.png") : nil)
        }
        for manifest in [Manifest(version: 7, sessions: sessions), Manifest(version: 0, sessions: [])] {
            let expected = try Self.encoderBytes(manifest)
            let actual = try manifest.encoded()
            #expect(actual == expected, """
                ours:
                \(String(decoding: actual, as: UTF8.self))
                JSONEncoder's:
                \(String(decoding: expected, as: UTF8.self))
                """)
        }
    }

    @Test("A save writes the file in pieces, keeps its permissions, and leaves nothing beside it")
    func savesInPieces() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appending(path: "nested/manifest.json")
            let sessions = (0..<2_000).map { index in
                Session(id: "s\(index)", title: "Session \(index)", url: URL(string: "https://h.example/\(index).mp4")!,
                        fileSize: index, sha256: Self.sha, essential: false)
            }
            let manifest = Manifest(version: 1, sessions: sessions)
            try manifest.save(to: url)
            #expect(try Data(contentsOf: url) == Self.encoderBytes(manifest))
            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: url.path)

            let smaller = Manifest(version: 2, sessions: Array(sessions.prefix(3)))
            try smaller.save(to: url)
            #expect(try Manifest.load(from: url) == smaller)
            let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
            #expect(permissions == 0o640)
            #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["manifest.json"])
        }
    }

    @Test("A save that fails part way leaves the old file and no temporary one")
    func failedSaveKeepsTheOldFile() async throws {
        struct Interrupted: Error {}
        try await withTemporaryDirectory { folder in
            let url = folder.appending(path: "manifest.json")
            try AtomicFile.write(Data("old".utf8), to: url)
            #expect(throws: Interrupted.self) {
                try AtomicFile.write(to: url) { write in
                    try write(Array("new, half".utf8))
                    throw Interrupted()
                }
            }
            #expect(try String(contentsOf: url, encoding: .utf8) == "old")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["manifest.json"])
        }
    }

    @Test("A session gives back the URL and checksum it was made with, however they are kept")
    func sessionsKeepTheirFields() throws {
        let digests = [Self.sha, String(repeating: "AB", count: 32), "not a digest", "", String(repeating: "a", count: 65)]
        let urls = ["https://h.example/a.mp4?x=1#f", "sessions/relative.mp4", "http://[::1]:8080/v.mp4"]
        for digest in digests {
            for text in urls {
                let url = try #require(URL(string: text))
                var session = Session(id: "a", title: "A", url: url, fileSize: 1, sha256: digest, essential: false)
                #expect(session.sha256 == digest)
                #expect(session.url == url)
                #expect(session.url.absoluteString == text)
                #expect(session == Session(id: "a", title: "A", url: url, fileSize: 1, sha256: digest, essential: false))
                session.sha256 = Self.sha
                session.url = URL(fileURLWithPath: "/tmp/a b.mp4")
                #expect(session.sha256 == Self.sha)
                #expect(session.url == URL(fileURLWithPath: "/tmp/a b.mp4"))
                #expect(session.fileName == "a.mp4")
            }
        }
    }
}
