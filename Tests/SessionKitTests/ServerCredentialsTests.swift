/*
Abstract:
Tests for the asset server credentials kept in the app group, and when they are offered.
*/

import Foundation
import SessionKit
import TestSupport
import Testing

@Suite("Server credentials")
struct ServerCredentialsTests {
    static func settings(in folder: URL) -> SharedSettings {
        SharedSettings(appGroupIdentifier: SharedSettings.appGroupIdentifier, containerURL: folder)
    }

    static let protectedVideo = URL(string: "http://127.0.0.1:8080/protected/wwdc23-10108.mp4")!

    @Test("Credentials live in the container's preferences, outside the caches the system may purge")
    func credentialsAreNotInCaches() async throws {
        try await withTemporaryDirectory { folder in
            let settings = Self.settings(in: folder)
            #expect(settings.credentialsURL.path == folder.appending(path: "Library/Preferences/credentials.json").path)
            #expect(!settings.credentialsURL.path.hasPrefix(settings.cachesDirectory.path))
        }
    }

    @Test("Saved credentials load back, readable by their owner only")
    func roundTrip() async throws {
        try await withTemporaryDirectory { folder in
            let settings = Self.settings(in: folder)
            #expect(try settings.loadCredentials() == nil, "no file means no credentials, not an error")
            let credentials = ServerCredentials(user: "wwdc", password: "sessions", host: "127.0.0.1")
            try credentials.save(to: settings.credentialsURL)
            #expect(try settings.loadCredentials() == credentials)
            let attributes = try FileManager.default.attributesOfItem(atPath: settings.credentialsURL.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
    }

    @Test("A file written by hand without a host loads")
    func handWrittenFile() async throws {
        try await withTemporaryDirectory { folder in
            let settings = Self.settings(in: folder)
            try FileManager.default.createDirectory(
                at: settings.credentialsURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(#"{"user": "wwdc", "password": "s3cret"}"#.utf8).write(to: settings.credentialsURL)
            #expect(try settings.loadCredentials() == ServerCredentials(user: "wwdc", password: "s3cret"))
        }
    }

    @Test(
        "Unusable credentials files are refused with the reason",
        arguments: [
            (#"{"password": "x"}"#, "user"),
            (#"{"user": "", "password": "x"}"#, "empty"),
            (#"{"user": "a:b", "password": "x"}"#, "':'"),
            (#"{"user": "wwdc", "password": "x", "host": ""}"#, "host"),
            ("not json", "JSON"),
        ])
    func refusesUnusableFiles(contents: String, reasonMentions: String) async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appending(path: "credentials.json")
            try Data(contents.utf8).write(to: url)
            #expect {
                try ServerCredentials.load(from: url)
            } throws: { error in
                guard case let .invalidCredentials(path, reason) = error as? SessionKitError else { return false }
                return path == url.path && reason.contains(reasonMentions)
            }
        }
    }

    @Test("Credentials that cannot be sent are not saved")
    func refusesToSaveUnusableCredentials() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appending(path: "credentials.json")
            #expect(throws: SessionKitError.self) {
                try ServerCredentials(user: "a:b", password: "x").save(to: url)
            }
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }

    @Test("Credentials answer a challenge only from the session's own server, for a protected path")
    func answersOnlyProtectedPaths() {
        let credentials = ServerCredentials(user: "wwdc", password: "sessions")
        #expect(credentials.answer(challengeFrom: "127.0.0.1", downloading: Self.protectedVideo))
        let open = URL(string: "http://127.0.0.1:8080/sessions/wwdc23-10108.mp4")!
        #expect(!credentials.answer(challengeFrom: "127.0.0.1", downloading: open))
        #expect(!credentials.answer(challengeFrom: "evil.example.com", downloading: Self.protectedVideo))
        let escaping = URL(string: "http://127.0.0.1:8080/protected/../sessions/a.mp4")!
        #expect(!credentials.answer(challengeFrom: "127.0.0.1", downloading: escaping))
    }

    @Test("Credentials that name a host are sent to that host only")
    func hostRestriction() {
        let credentials = ServerCredentials(user: "wwdc", password: "sessions", host: "cdn.example.com")
        #expect(!credentials.answer(challengeFrom: "127.0.0.1", downloading: Self.protectedVideo))
        let cdn = URL(string: "https://CDN.example.com/protected/a.mp4")!
        #expect(credentials.answer(challengeFrom: "cdn.example.com", downloading: cdn))
    }
}
