/*
Abstract:
Tests for the locations the app and its extension share, and where the manifest's URL comes from.
*/

import Foundation
import SessionKit
import TestSupport
import Testing

@Suite("Shared settings")
struct SharedSettingsTests {
    @Test("The manifest URL comes from BA_MANIFEST_URL, else from App/Info.plist's BAManifestURL")
    func manifestURLFromEnvironment() throws {
        #expect(SharedSettings.manifestURL(environment: [:]) == SharedSettings.defaultManifestURL)
        #expect(SharedSettings.defaultManifestURL.absoluteString == "http://127.0.0.1:8080/manifest.json")
        let custom = ["BA_MANIFEST_URL": "http://127.0.0.1:4242/catalog/manifest.json"]
        #expect(SharedSettings.manifestURL(environment: custom).absoluteString == custom["BA_MANIFEST_URL"])
        for unusable in ["", "not a url", "/relative/manifest.json"] {
            let url = SharedSettings.manifestURL(environment: ["BA_MANIFEST_URL": unusable])
            #expect(url == SharedSettings.defaultManifestURL, "\(unusable.debugDescription) is ignored")
        }
    }

    @Test("The manifest's relative session URLs resolve against the manifest URL")
    func relativeURLsResolveAgainstManifestURL() throws {
        let json = Data(#"""
            {"version": 1, "sessions": [{"id": "wwdc23-10108", "title": "t", "url": "sessions/wwdc23-10108.mp4",
             "fileSize": 1, "sha256": "\#(String(repeating: "0", count: 64))"}]}
            """#.utf8)
        let base = SharedSettings.manifestURL(environment: ["BA_MANIFEST_URL": "http://127.0.0.1:4242/manifest.json"])
        let manifest = try Manifest.decode(json, source: "test", baseURL: base)
        #expect(manifest.sessions[0].url.absoluteString == "http://127.0.0.1:4242/sessions/wwdc23-10108.mp4")
    }

    @Test("The temporary folder is in the container, beside the sessions, so a move there is a rename")
    func temporaryDirectoryIsBesideTheSessions() async throws {
        try await withTemporaryDirectory { folder in
            let settings = SharedSettings(appGroupIdentifier: SharedSettings.appGroupIdentifier, containerURL: folder)
            #expect(settings.temporaryDirectory.path.hasPrefix(settings.cachesDirectory.path))
            #expect(settings.temporaryDirectory != settings.sessionsDirectory)
        }
    }
}
