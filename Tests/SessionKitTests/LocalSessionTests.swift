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
}
