/*
Abstract:
Tests that an app without a downloader extension (one that downloads with a background URLSession) installs from its Info.plist alone, and what it may not declare.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("An app without a downloader extension")
struct AppWithoutExtensionTests {
    /// The sample app's Info.plist without its Background Assets keys.
    static func appAlone() throws -> [String: Any] {
        var app = try SampleBundle.appDictionary()
        for key in ["BAManifestURL", "BAInitialDownloadRestrictions", "BAMaxInstallSize", "BAEssentialMaxInstallSize"] {
            app[key] = nil
        }
        return app
    }

    static func write(_ dictionary: [String: Any], in folder: TemporaryDirectory) throws -> URL {
        let file = folder.url.appending(path: "Info.plist")
        try SampleBundle.xml(dictionary).write(to: file)
        return file
    }

    @Test("Its Info.plist alone validates: no manifest, nothing to download at install, its app group for its files")
    func validates() throws {
        let folder = try TemporaryDirectory()
        let app = try Self.appAlone()
        let bundle = try AppBundleDescription(appPlistAt: Self.write(app, in: folder), extensionPlistAt: nil)
        #expect(bundle.extension == nil)
        #expect(bundle.app.manifestURL == nil)
        #expect(bundle.app.maxInstallSize == 0)
        #expect(bundle.appGroup == app["AppGroupIdentifier"] as? String)
    }

    @Test("Background Assets keys without the extension, or no app group, are refused naming the key")
    func refusals() throws {
        let folder = try TemporaryDirectory()
        var withManifest = try Self.appAlone()
        withManifest["BAManifestURL"] = "http://127.0.0.1/manifest.json"
        #expect(throws: AppBundleError.self) {
            try AppBundleDescription(appPlistAt: Self.write(withManifest, in: folder), extensionPlistAt: nil)
        }
        do {
            _ = try AppBundleDescription(appPlistAt: Self.write(withManifest, in: folder), extensionPlistAt: nil)
        } catch let error as AppBundleError {
            #expect(error.key == "BAManifestURL")
        }
        var groupless = try Self.appAlone()
        groupless["AppGroupIdentifier"] = nil
        groupless["com.apple.security.application-groups"] = nil
        do {
            _ = try AppBundleDescription(appPlistAt: Self.write(groupless, in: folder), extensionPlistAt: nil)
            Issue.record("an app without a group was accepted")
        } catch let error as AppBundleError {
            #expect(error.key == "com.apple.security.application-groups")
        }
    }

    @Test("It installs with its executable alone: no extension bundle is written")
    func installs() async throws {
        let root = try TemporaryDeviceRoot()
        let paths = DevicePaths(root: root.url)
        let folder = try TemporaryDirectory()
        let installer = AppInstaller(paths: paths, registry: AppRegistry(paths: paths))
        let request = InstallRequest(
            appPlistPath: try Self.write(Self.appAlone(), in: folder).path, extensionPlistPath: nil,
            executablesDirectory: ProductsDirectory.url().path)
        let (app, kind) = try await installer.install(try installer.read(request), at: Date(timeIntervalSince1970: 1000))
        #expect(kind == .install)
        #expect(app.extensionExecutable == nil)
        #expect(FileManager.default.isExecutableFile(atPath: app.appExecutable.path))
        let extensions = app.appExecutable.deletingLastPathComponent().appending(path: "Extensions")
        #expect(!FileManager.default.fileExists(atPath: extensions.path))
    }
}
