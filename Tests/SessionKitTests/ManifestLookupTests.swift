/*
Abstract:
Tests for finding a manifest's session by identifier and by download identifier, however the manifest was made.
*/

import Foundation
import SessionKit
import Testing

@Suite("Manifest lookups")
struct ManifestLookupTests {
    static func session(_ id: String, title: String = "Session") -> Session {
        Session(
            id: id, title: title, url: URL(string: "https://cdn.example.com/\(id).mp4")!, fileSize: 1024,
            sha256: String(repeating: "ab", count: 32), essential: false)
    }

    @Test("Every session of a decoded manifest is found by its identifier and its download identifier")
    func findsDecodedSessions() throws {
        let sessions = (0..<500).map { Self.session("wwdc23-\(10_000 + $0)") }
        let data = try JSONEncoder().encode(Manifest(version: 1, sessions: sessions))
        let manifest = try Manifest.decode(data, source: "test")
        for session in sessions {
            #expect(manifest.session(withID: session.id) == session)
            #expect(manifest.session(forDownloadIdentifier: session.downloadIdentifier) == session)
        }
        #expect(manifest.session(withID: "wwdc23-9999") == nil)
        #expect(manifest.session(forDownloadIdentifier: "") == nil)
    }

    @Test("A manifest's sessions changed in place are found as they are now")
    func followsChangedSessions() {
        var manifest = Manifest(version: 1, sessions: [Self.session("a"), Self.session("b")])
        manifest.sessions.remove(at: 0)
        manifest.sessions.append(Self.session("c", title: "Added"))
        #expect(manifest.session(withID: "a") == nil)
        #expect(manifest.session(withID: "b") == Self.session("b"))
        #expect(manifest.session(forDownloadIdentifier: "c")?.title == "Added")
        manifest.sessions[0].title = "Renamed"
        #expect(manifest.session(withID: "b")?.title == "Renamed")
    }

    @Test("Where an unvalidated manifest lists an identifier twice, the first session is the one found")
    func firstOfDuplicates() {
        let manifest = Manifest(version: 1, sessions: [Self.session("a", title: "First"), Self.session("a", title: "Second")])
        #expect(manifest.session(withID: "a")?.title == "First")
    }

    @Test("Manifests with the same sessions are equal, whichever way they were made")
    func equality() throws {
        let made = Manifest(version: 2, sessions: [Self.session("a"), Self.session("b")])
        var changed = Manifest(version: 2, sessions: [Self.session("b")])
        changed.sessions.insert(Self.session("a"), at: 0)
        #expect(made == changed)
        let decoded = try JSONDecoder().decode(Manifest.self, from: JSONEncoder().encode(made))
        #expect(decoded == made)
        #expect(decoded.session(withID: "b") == Self.session("b"))
        #expect(made != Manifest(version: 3, sessions: made.sessions))
    }
}
