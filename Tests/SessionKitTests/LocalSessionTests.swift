/*
Abstract:
Tests for a session's on-device state and for moving verified downloads into place.
*/

import Foundation
import SessionKit
import TestSupport
import Testing

@Suite("Local sessions")
struct LocalSessionTests {
    static let video = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) })

    static func session(size: Int = video.count, sha256: String = SHA256.hexDigest(of: video)) -> Session {
        Session(
            id: "wwdc23-10108", title: "What's new in Background Assets",
            url: URL(string: "http://127.0.0.1:8080/sessions/wwdc23-10108.mp4")!,
            fileSize: size, sha256: sha256, essential: true)
    }

    static func settings(in folder: URL) -> SharedSettings {
        SharedSettings(appGroupIdentifier: SharedSettings.appGroupIdentifier, containerURL: folder)
    }

    @Test("A session is remote until its file is on disk with the right size")
    func stateFollowsTheDisk() async throws {
        try await withTemporaryDirectory { folder in
            let local = LocalSession(session: Self.session(), settings: Self.settings(in: folder))
            #expect(local.fileURL.path.hasSuffix("Library/Caches/Sessions/wwdc23-10108.mp4"))
            #expect(local.state == .remote)

            try FileManager.default.createDirectory(
                at: local.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Self.video.prefix(100).write(to: local.fileURL)
            #expect(local.state == .remote, "a partial file is not a download")
            try Self.video.write(to: local.fileURL)
            #expect(local.state == .downloaded)
            try FileManager.default.removeItem(at: local.fileURL)
            #expect(local.state == .remote, "a purged file is noticed")
        }
    }

    @Test("A verified download is moved into place, replacing an older copy")
    func movesVerifiedDownload() async throws {
        try await withTemporaryDirectory { folder in
            let local = LocalSession(session: Self.session(), settings: Self.settings(in: folder))
            for _ in 0..<2 {
                let download = folder.appending(path: "BAFile-1.tmp")
                try Self.video.write(to: download)
                try local.moveDownloadedFile(from: download)
                #expect(!FileManager.default.fileExists(atPath: download.path))
                #expect(local.state == .downloaded)
            }
        }
    }

    @Test("A download with the wrong checksum is refused and nothing is replaced")
    func refusesCorruptDownload() async throws {
        try await withTemporaryDirectory { folder in
            let local = LocalSession(
                session: Self.session(sha256: String(repeating: "0", count: 64)), settings: Self.settings(in: folder))
            let download = folder.appending(path: "BAFile-2.tmp")
            try Self.video.write(to: download)
            #expect {
                try local.moveDownloadedFile(from: download)
            } throws: { error in
                guard case let .verificationFailed(session, reason) = error as? SessionKitError else { return false }
                return session == "wwdc23-10108" && reason.contains("SHA-256")
            }
            #expect(local.state == .remote)
        }
    }

    @Test("The local manifest is saved into and loaded from the app group")
    func localManifestRoundTrip() async throws {
        try await withTemporaryDirectory { folder in
            let settings = Self.settings(in: folder)
            #expect(try settings.loadLocalManifest() == nil)
            let manifest = Manifest(version: 1, sessions: [Self.session()])
            try settings.saveLocalManifest(manifest)
            #expect(try settings.loadLocalManifest() == manifest)
            #expect(settings.localManifestURL.path.hasPrefix(folder.path))
        }
    }

    @Test("Hostile app group identifiers never become a container path")
    func refusesHostileAppGroups() {
        for identifier in ["../../etc", "", ".hidden", "group/with/slash", "nul\u{0}byte"] {
            #expect(throws: SessionKitError.invalidAppGroup(identifier)) {
                try SharedSettings(appGroupIdentifier: identifier)
            }
        }
    }

    @Test("A session's file name takes its extension as Foundation's URL.pathExtension does, for plain names and others")
    func fileNameExtension() throws {
        let origins = ["http://127.0.0.1:8080", "https://example.com", "https://user@example.com:99", "file://", ""]
        let paths = [
            "/a/b.mp4", "/a/b", "/a/.hidden", "/a/b.", "/a/..mp4", "/a/...mp4", "/a/b.tar.gz", "/a/b.mp4/", "/a/b%20c.mp4",
            "/a/b.m%70", "/a/b.MP4", "/a/b~1.mov", "/", "", "/a.b/c", "/a/b_c-d.x264", "/a:b/c.mp3", "sessions/c.mov",
        ]
        let tails = ["", "?x=1.zip", "#part.png", "?a#b.c"]
        var checked = 0
        for origin in origins {
            for path in paths {
                for tail in tails {
                    guard let url = URL(string: origin + path + tail) else { continue }
                    let session = Session(id: "s", title: "t", url: url, fileSize: 1, sha256: String(repeating: "0", count: 64), essential: false)
                    let pathExtension = url.pathExtension
                    #expect(session.fileName == (pathExtension.isEmpty ? "s" : "s.\(pathExtension)"), "\(url.absoluteString)")
                    checked += 1
                }
            }
        }
        #expect(checked > 300)
        let local = LocalSession(
            session: Self.session(), settings: Self.settings(in: URL(filePath: "/tmp/with space/", directoryHint: .isDirectory)))
        #expect(local.filePath == "/tmp/with space/Library/Caches/Sessions/wwdc23-10108.mp4")
        #expect(local.fileURL == URL(filePath: local.filePath), "the path and the URL name the same file")
        #expect(local.fileURL.path == local.filePath)
    }
}
