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
    @Test("The manifest URL comes from BA_MANIFEST_URL, else from the bundle's BAManifestURL, else there is none")
    func manifestURLFromEnvironment() throws {
        // The test process has no Info.plist: the URL is written only in App/Info.plist, so a
        // process without a bundle has none, rather than a copy that could disagree with it.
        #expect(SharedSettings.manifestURL(environment: [:]) == nil)
        let custom = ["BA_MANIFEST_URL": "http://127.0.0.1:4242/catalog/manifest.json"]
        #expect(SharedSettings.manifestURL(environment: custom)?.absoluteString == custom["BA_MANIFEST_URL"])
        for unusable in ["", "not a url", "/relative/manifest.json"] {
            let url = SharedSettings.manifestURL(environment: ["BA_MANIFEST_URL": unusable])
            #expect(url == nil, "\(unusable.debugDescription) is ignored")
        }
    }

    @Test("The app group fallback for a process without a bundle is the one App/Info.plist declares")
    func fallbacksMatchAppInfoPlist() throws {
        let info = try Self.appInfo()
        let declared = info["AppGroupIdentifier"] as? String
        #expect(
            SharedSettings.defaultAppGroupIdentifier == declared,
            """
            App/Info.plist's AppGroupIdentifier is \(declared.map { "\"\($0)\"" } ?? "missing"), but \
            SharedSettings.defaultAppGroupIdentifier is "\(SharedSettings.defaultAppGroupIdentifier)": change \
            Shared/SessionKit/SharedSettings.swift to match (Docs/UsingAsTemplate.md lists both).
            """)
        let groups = info["com.apple.security.application-groups"] as? [String] ?? []
        #expect(
            groups.contains(SharedSettings.defaultAppGroupIdentifier),
            """
            App/Info.plist's com.apple.security.application-groups is \(groups), which does not contain \
            SharedSettings.defaultAppGroupIdentifier "\(SharedSettings.defaultAppGroupIdentifier)": add it there, \
            or change Shared/SessionKit/SharedSettings.swift.
            """)
    }

    /// The package's App/Info.plist, which the fallback must agree with (a renamed copy included).
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
