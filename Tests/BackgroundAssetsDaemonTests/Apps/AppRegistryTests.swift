/*
Abstract:
Tests for the installed apps registry: round trips, atomic writes, hostile identifiers, damaged records, uninstall.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("App registry")
struct AppRegistryTests {
    static let installDate = Date(timeIntervalSince1970: 1_800_000_000)

    static func sampleApp() throws -> InstalledApp {
        InstalledApp(
            bundle: try SampleBundle.description(),
            appExecutable: URL(fileURLWithPath: "/opt/sample/wwdc-sessions"),
            extensionExecutable: URL(fileURLWithPath: "/opt/sample/wwdc-sessions-extension"),
            installDate: installDate
        )
    }

    @Test("An installed app's record reads back as it was saved")
    func roundTrip() async throws {
        let root = try TemporaryDeviceRoot()
        let registry = AppRegistry(paths: DevicePaths(root: root.url))
        var app = try Self.sampleApp()
        app.recordLaunch(at: Self.installDate.addingTimeInterval(3600))
        app.recordExtensionRuntime(12.5, at: Self.installDate)
        app.state = .launchable
        try await registry.save(app)
        let loaded = try #require(try await registry.app(app.bundleIdentifier))
        #expect(loaded == app)
        #expect(loaded.firstLaunchDate == Self.installDate.addingTimeInterval(3600))
        #expect(loaded.allowance.isLifted)
        #expect(try await registry.app("com.example.NotInstalled") == nil)
        #expect(FileManager.default.fileExists(atPath: root.appending("apps/\(app.bundleIdentifier)/app.json").path))
    }

    @Test("Saving replaces the record in one rename and leaves no temporary file behind")
    func atomicReplacement() async throws {
        let root = try TemporaryDeviceRoot()
        let registry = AppRegistry(paths: DevicePaths(root: root.url))
        var app = try Self.sampleApp()
        try await registry.save(app)
        app.state = .launchable
        try await registry.save(app)
        let folder = root.appending("apps/\(app.bundleIdentifier)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["app.json"])
        #expect(try await registry.app(app.bundleIdentifier)?.state == .launchable)
    }

    @Test("A record changed behind the registry's back, renamed over, rewritten in place or deleted, is read again")
    func recordChangedOnDisk() async throws {
        let root = try TemporaryDeviceRoot()
        let registry = AppRegistry(paths: DevicePaths(root: root.url))
        let app = try Self.sampleApp()
        try await registry.save(app)
        #expect(try await registry.app(app.bundleIdentifier)?.state == app.state)
        let record = root.appending("apps/\(app.bundleIdentifier)/app.json")
        let text = try String(contentsOf: record, encoding: .utf8)
        let launchable = text.replacingOccurrences(of: "\"state\" : \"\(app.state.rawValue)\"", with: "\"state\" : \"launchable\"")
        #expect(launchable != text)

        // Another file renamed over the record.
        let replacement = root.appending("apps/\(app.bundleIdentifier)/replacement.json")
        try launchable.write(to: replacement, atomically: false, encoding: .utf8)
        #expect(rename(replacement.path, record.path) == 0)
        #expect(try await registry.app(app.bundleIdentifier)?.state == .launchable)

        // The same file rewritten in place.
        let handle = try FileHandle(forWritingTo: record)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        #expect(try await registry.app(app.bundleIdentifier)?.state == app.state)

        try FileManager.default.removeItem(at: record)
        #expect(try await registry.app(app.bundleIdentifier) == nil)
    }

    @Test("An update that changes nothing leaves the record's file alone; one that changes it replaces the file")
    func unchangedUpdateWritesNothing() async throws {
        let root = try TemporaryDeviceRoot()
        let registry = AppRegistry(paths: DevicePaths(root: root.url))
        var app = try Self.sampleApp()
        app.recordLaunch(at: Self.installDate)
        try await registry.save(app)
        let record = root.appending("apps/\(app.bundleIdentifier)/app.json").path
        func inode() -> ino_t {
            var status = stat()
            return stat(record, &status) == 0 ? status.st_ino : 0
        }
        let saved = inode()
        #expect(saved != 0)

        // After the first launch the allowance admits everything without counting: nothing to write.
        let admitted = try await registry.update(app.bundleIdentifier) { installed -> Bool in
            try installed.allowance.admit(DownloadAllowance.Request(
                identifier: "wwdc23-10108", url: URL(string: "https://cdn.example.com/a.mp4")!, fileSize: 1024,
                isEssential: false, inAppContentEnabled: true))
            return true
        }
        #expect(admitted)
        #expect(inode() == saved, "the record was not rewritten")

        try await registry.update(app.bundleIdentifier) { $0.state = .launchable }
        #expect(inode() != saved, "a changed record is written as a new file, renamed over the old one")
        #expect(try await registry.app(app.bundleIdentifier)?.state == .launchable)
    }

    @Test("Concurrent updates of one app never lose a change")
    func concurrentUpdates() async throws {
        let root = try TemporaryDeviceRoot()
        let registry = AppRegistry(paths: DevicePaths(root: root.url))
        let app = try Self.sampleApp()
        try await registry.save(app)
        let day = Self.installDate
        await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await registry.update(app.bundleIdentifier) { $0.recordExtensionRuntime(1, at: day) }
                }
            }
        }
        #expect(try await registry.app(app.bundleIdentifier)?.extensionRuntimeUsed(on: day) == 40)
    }

    @Test("Identifiers that could escape apps/ are refused and nothing is written")
    func hostileIdentifiers() async throws {
        let root = try TemporaryDeviceRoot()
        let registry = AppRegistry(paths: DevicePaths(root: root.url))
        for identifier in [
            "", ".", "..", "../escape", "a/b", ".hidden", "com.example/..", String(repeating: "a", count: 300),
        ] {
            await #expect(throws: AppRegistryError.invalidBundleIdentifier(identifier)) {
                try await registry.app(identifier)
            }
            await #expect(throws: AppRegistryError.invalidBundleIdentifier(identifier)) {
                try await registry.uninstall(identifier)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: root.appending("escape").path))
        await #expect(throws: AppRegistryError.notInstalled("com.example.Missing")) {
            try await registry.update("com.example.Missing") { _ in }
        }
    }

    @Test("A damaged or misplaced record is reported without hiding the other apps")
    func damagedRecords() async throws {
        let root = try TemporaryDeviceRoot()
        let paths = DevicePaths(root: root.url)
        let registry = AppRegistry(paths: paths)
        let app = try Self.sampleApp()
        try await registry.save(app)
        let garbage = try #require(paths.appRecordFile(forBundleIdentifier: "com.example.Garbage"))
        try FileManager.default.createDirectory(
            at: garbage.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: garbage)
        // A record copied into another app's folder must not be taken for that app.
        let misplaced = try #require(paths.appRecordFile(forBundleIdentifier: "com.example.Copy"))
        try FileManager.default.createDirectory(
            at: misplaced.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: try #require(paths.appRecordFile(forBundleIdentifier: app.bundleIdentifier)), to: misplaced)
        let listing = await registry.apps()
        #expect(listing.apps.map(\.bundleIdentifier) == [app.bundleIdentifier])
        #expect(listing.problems.count == 2)
        for problem in listing.problems {
            guard case let .unreadableRecord(path, _) = problem else {
                Issue.record("unexpected \(problem)")
                continue
            }
            #expect(path == garbage.path || path == misplaced.path)
            #expect(problem.description.contains(path))
        }
        await #expect(throws: AppRegistryError.self) { try await registry.app("com.example.Copy") }
    }

    @Test("Uninstalling removes the app's folder and everything in it")
    func uninstall() async throws {
        let root = try TemporaryDeviceRoot()
        let registry = AppRegistry(paths: DevicePaths(root: root.url))
        let app = try Self.sampleApp()
        try await registry.save(app)
        let extra = root.appending("apps/\(app.bundleIdentifier)/Info.plist")
        try Data("x".utf8).write(to: extra)
        #expect(try await registry.uninstall(app.bundleIdentifier))
        #expect(!FileManager.default.fileExists(atPath: root.appending("apps/\(app.bundleIdentifier)").path))
        #expect(try await registry.uninstall(app.bundleIdentifier) == false)
        #expect(await registry.apps().apps.isEmpty)
    }
}
