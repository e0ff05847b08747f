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
        #expect(SharedSettings.defaultManifestURL.absoluteString == (try Self.appInfo()["BAManifestURL"] as? String))
        let custom = ["BA_MANIFEST_URL": "http://127.0.0.1:4242/catalog/manifest.json"]
        #expect(SharedSettings.manifestURL(environment: custom).absoluteString == custom["BA_MANIFEST_URL"])
        for unusable in ["", "not a url", "/relative/manifest.json"] {
            let url = SharedSettings.manifestURL(environment: ["BA_MANIFEST_URL": unusable])
            #expect(url == SharedSettings.defaultManifestURL, "\(unusable.debugDescription) is ignored")
        }
    }

    @Test("The fallbacks for a process without a bundle are what App/Info.plist declares")
    func fallbacksMatchAppInfoPlist() throws {
        let info = try Self.appInfo()
        #expect(SharedSettings.defaultAppGroupIdentifier == info["AppGroupIdentifier"] as? String)
        #expect((info["com.apple.security.application-groups"] as? [String])?.contains(
            SharedSettings.defaultAppGroupIdentifier) == true)
    }

    /// The package's App/Info.plist, which the fallbacks must agree with (a renamed copy included).
    static func appInfo() throws -> [String: Any] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("App/Info.plist")
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: file), format: nil)
        return try #require(plist as? [String: Any], "\(file.path) is not a dictionary")
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
