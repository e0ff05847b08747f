/*
Abstract:
Tests of the background-session store and host: records survive reopening, files are handed over inside the container.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Background-session store and host")
struct BackgroundSessionStoreHostTests {
    @Test("A session's record, its tasks and waiting events survive reopening the store")
    func storeRoundTrip() async throws {
        let directory = try TemporaryDirectory(prefix: "url-session-store")
        let url = directory.url.appending(path: "url-sessions.sqlite")
        let key = BackgroundSessionKey(bundleIdentifier: "com.example.game", sessionIdentifier: "game-data")
        var record = BackgroundSessionRecord(key: key, settings: BackgroundSessionSettings(identifier: "game-data", isDiscretionary: true))
        record.tasks[3] = BackgroundTaskSnapshot(taskIdentifier: 3, request: BackgroundTaskRequest(url: URL(string: "https://a.example/x")!))
        record.waiting = [.completed(record.tasks[3]!)]
        record.nextTaskIdentifier = 4
        try await BackgroundSessionStore(url: url).save(key, record)
        let reopened = try BackgroundSessionStore(url: url)
        #expect(try await reopened.all().records == [record])
        try await reopened.save(key, nil)
        #expect(try await reopened.all().records.isEmpty)
    }

    @Test("A session's files go inside the app group's container, or the app's folder, and never outside the device root")
    func folders() throws {
        let root = try TemporaryDirectory(prefix: "url-session-files")
        let paths = DevicePaths(root: root.url)
        let files = BackgroundSessionFiles(paths: paths)
        let shared = try #require(files.handOverDirectory(for: "com.example.game", appGroup: "group.com.example.game"))
        #expect(shared.path.hasPrefix(paths.container(forAppGroup: "group.com.example.game")!.path))
        let own = try #require(files.handOverDirectory(for: "com.example.game", appGroup: nil))
        #expect(own.path.hasPrefix(paths.appDirectory(forBundleIdentifier: "com.example.game")!.path))
        #expect(files.handOverDirectory(for: "com.example.game", appGroup: "../escape") == nil)
        #expect(files.handOverDirectory(for: "../escape", appGroup: nil) == nil)

        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let kept = shared.appending(path: "CFNetworkDownload_7-A.tmp")
        let left = shared.appending(path: "CFNetworkDownload_8-B.tmp")
        try Data("a".utf8).write(to: kept)
        try Data("b".utf8).write(to: left)
        #expect(files.removeLeftovers(for: "com.example.game", appGroup: "group.com.example.game", keeping: [kept.path]) == 1)
        #expect(FileManager.default.fileExists(atPath: kept.path))
        #expect(!FileManager.default.fileExists(atPath: left.path))
    }

    @Test("Resume data names a partial file of its own app only")
    func partialFiles() throws {
        let root = try TemporaryDirectory(prefix: "url-session-partials")
        let files = BackgroundSessionFiles(paths: DevicePaths(root: root.url))
        let (name, url) = try #require(files.newPartialFile(for: "com.example.game"))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("partial".utf8).write(to: url)
        #expect(files.partialFile(named: name, for: "com.example.game") == url)
        #expect(files.partialFile(named: name, for: "com.example.other") == nil, "another app's partial file")
        #expect(files.partialFile(named: "../com.example.game/\(name)", for: "com.example.other") == nil)
        let data = BackgroundResumeData(sessionIdentifier: "s", request: BackgroundTaskRequest(url: URL(string: "https://a.example/x")!),
                                        bytesReceived: 7, entityTag: "\"v1\"", partialFileName: name).encoded()
        files.removePartialFile(of: data, for: "com.example.game")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
