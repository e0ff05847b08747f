/*
Abstract:
Tests for finding the sessions that are not on the device, and matching downloads back to sessions.
*/

import Foundation
import SessionKit
import TestSupport
import Testing

@Suite("Remote sessions")
struct RemoteSessionsTests {
    static func video(_ id: String) -> Data { Data("video of \(id)".utf8) }

    static func session(_ id: String, essential: Bool = false) -> Session {
        Session(
            id: id, title: "Session \(id)", url: URL(string: "http://127.0.0.1:8080/sessions/\(id).mp4")!,
            fileSize: video(id).count, sha256: SHA256.hexDigest(of: video(id)), essential: essential)
    }

    static let manifest = Manifest(
        version: 2,
        sessions: [session("wwdc23-10108", essential: true), session("wwdc23-10006"), session("wwdc23-10164")])

    static func settings(in folder: URL) -> SharedSettings {
        SharedSettings(appGroupIdentifier: SharedSettings.appGroupIdentifier, containerURL: folder)
    }

    /// Puts a session's video on disk the way a finished download does.
    static func download(_ session: Session, settings: SharedSettings) throws {
        let file = settings.containerURL.appending(path: "BAFile-\(session.id).tmp")
        try video(session.id).write(to: file)
        try LocalSession(session: session, settings: settings).moveDownloadedFile(from: file)
    }

    @Test("Every session is remote on a new device, in the manifest's order")
    func everythingIsRemoteAtFirst() async throws {
        try await withTemporaryDirectory { folder in
            let remote = Self.manifest.remoteSessions(settings: Self.settings(in: folder))
            #expect(remote.map(\.id) == ["wwdc23-10108", "wwdc23-10006", "wwdc23-10164"])
            #expect(remote.allSatisfy { $0.fileURL.path.hasPrefix(folder.path) })
        }
    }

    @Test("Downloaded sessions drop out of the remote list, and come back when their file is purged")
    func remoteListFollowsTheDisk() async throws {
        try await withTemporaryDirectory { folder in
            let settings = Self.settings(in: folder)
            try Self.download(Self.manifest.sessions[1], settings: settings)
            #expect(Self.manifest.remoteSessions(settings: settings).map(\.id) == ["wwdc23-10108", "wwdc23-10164"])
            #expect(Self.manifest.localSessions(settings: settings).map(\.state) == [.remote, .downloaded, .remote])

            // backgroundassets-debug purge empties the caches, as the system does under storage pressure.
            try FileManager.default.removeItem(at: settings.cachesDirectory)
            #expect(Self.manifest.remoteSessions(settings: settings).count == 3)
        }
    }

    @Test("A file of the wrong size on disk does not count as downloaded")
    func truncatedFileIsRemote() async throws {
        try await withTemporaryDirectory { folder in
            let settings = Self.settings(in: folder)
            let local = LocalSession(session: Self.manifest.sessions[0], settings: settings)
            try FileManager.default.createDirectory(at: settings.sessionsDirectory, withIntermediateDirectories: true)
            try Data("video".utf8).write(to: local.fileURL)
            #expect(Self.manifest.remoteSessions(settings: settings).map(\.id).contains(local.id))
        }
    }

    @Test("A download identifier leads back to its session, and nothing else matches")
    func downloadIdentifiersMatchSessions() throws {
        for session in Self.manifest.sessions {
            #expect(Self.manifest.session(forDownloadIdentifier: session.downloadIdentifier) == session)
        }
        #expect(Self.manifest.session(forDownloadIdentifier: "wwdc23-99999") == nil)
        #expect(Self.manifest.session(forDownloadIdentifier: "WWDC23-10108") == nil, "identifiers are case-sensitive")
        #expect(Self.manifest.session(forDownloadIdentifier: "") == nil)
    }

    @Test("A manifest saved and loaded again matches the same downloads")
    func savedManifestKeepsIdentifiers() async throws {
        try await withTemporaryDirectory { folder in
            let settings = Self.settings(in: folder)
            try settings.saveLocalManifest(Self.manifest)
            let loaded = try #require(try settings.loadLocalManifest())
            #expect(loaded.session(forDownloadIdentifier: "wwdc23-10006")?.url == Self.manifest.sessions[1].url)
        }
    }
}
