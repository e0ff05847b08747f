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

    @Test("A finished file is handed over inside the app group's container and leftovers are cleared")
    func handOver() throws {
        let root = try TemporaryDirectory(prefix: "url-session-host")
        let paths = DevicePaths(root: root.url)
        let host = BackgroundSessionHost(paths: paths)
        let staged = root.url.appending(path: "staged.part")
        try Data("game data".utf8).write(to: staged)
        let handed = try host.handOver(staged, for: "com.example.game", appGroup: "group.com.example.game")
        #expect(handed.path.hasPrefix(paths.container(forAppGroup: "group.com.example.game")!.path))
        #expect(handed.lastPathComponent.hasPrefix("CFNetworkDownload_"))
        #expect(try String(contentsOf: handed, encoding: .utf8) == "game data")
        #expect(!FileManager.default.fileExists(atPath: staged.path))
        #expect(host.removeLeftovers(for: "com.example.game", appGroup: "group.com.example.game") == 1)
        #expect(host.handOverDirectory(for: "com.example.game", appGroup: "../escape") == nil)
    }
}
