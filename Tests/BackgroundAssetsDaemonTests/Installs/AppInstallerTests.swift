/*
Abstract:
Tests that installing writes the bundle and the record, an update needs a higher version, and removal frees the container.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Installing and removing apps")
struct AppInstallerTests {
    static func request(in root: TemporaryDeviceRoot, version: String? = nil) throws -> InstallRequest {
        let fixture = AppBundleFixture(manifestURL: try #require(URL(string: "http://127.0.0.1:9/manifest.json")))
        let plists = try fixture.write(in: root.url.appending(path: "bundle"))
        return InstallRequest(
            appPlistPath: plists.app.path, extensionPlistPath: plists.extension.path,
            executablesDirectory: ProductsDirectory.url().path, version: version)
    }

    @Test("An install writes the bundle the app runs from and registers it; the same version again is refused")
    func installsThenRefusesSameVersion() async throws {
        let root = try TemporaryDeviceRoot()
        let paths = DevicePaths(root: root.url)
        let installer = AppInstaller(paths: paths, registry: AppRegistry(paths: paths))
        let candidate = try installer.read(try Self.request(in: root))
        let (app, kind) = try await installer.install(candidate, at: Date(timeIntervalSince1970: 1000))
        #expect(kind == .install)
        #expect(FileManager.default.isExecutableFile(atPath: app.appExecutable.path))
        #expect(FileManager.default.isExecutableFile(atPath: app.extensionExecutable?.path ?? ""))
        #expect(app.installDate == Date(timeIntervalSince1970: 1000))
        await #expect { try await installer.install(candidate, at: .now) } throws: { error in
            (error as? AppInstaller.Refusal)?.message.contains("is already installed. Install a higher version") == true
        }
        let update = try installer.read(try Self.request(in: root, version: "2"))
        #expect(try await installer.install(update, at: .now).kind == .update)
    }

    @Test("A version that is not one is refused before anything is written")
    func badVersion() throws {
        let root = try TemporaryDeviceRoot()
        let paths = DevicePaths(root: root.url)
        let installer = AppInstaller(paths: paths, registry: AppRegistry(paths: paths))
        #expect { try installer.read(try Self.request(in: root, version: "two")) } throws: { error in
            (error as? AppInstaller.Refusal)?.message.contains("is not a bundle version") == true
        }
        #expect(!FileManager.default.fileExists(atPath: paths.appsDirectory.path))
    }

    @Test("Removing the only app of a group deletes its record, its bundle and the group's container")
    func removeFreesContainer() async throws {
        let root = try TemporaryDeviceRoot()
        let paths = DevicePaths(root: root.url)
        let installer = AppInstaller(paths: paths, registry: AppRegistry(paths: paths))
        let (app, _) = try await installer.install(try installer.read(try Self.request(in: root)), at: .now)
        let container = try #require(paths.container(forAppGroup: app.bundle.appGroup))
        try FileManager.default.createDirectory(at: container.appending(path: "Library/Caches"), withIntermediateDirectories: true)
        try await installer.remove(app)
        #expect(!FileManager.default.fileExists(atPath: container.path))
        #expect(try await AppRegistry(paths: paths).app(app.bundleIdentifier) == nil)
    }
}
