/*
Abstract:
Tests that the notices waiting in an extension's backlog file come back a batch at a time, in order, and the file goes with the backlog.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Extension notice backlog")
struct ExtensionNoticeBacklogTests {
    static func notice(_ index: Int) -> ExtensionCall {
        let download = DownloadDescriptor(
            // A newline and quotes in the identifier: a line holds one notice whatever its strings hold.
            identifier: "d\(index)\n\"x\"", uniqueIdentifier: "u\(index)", url: "https://example.com/\(index)", fileSize: 1,
            applicationGroupIdentifier: "group.com.example.app", state: .failed)
        return .failed(download: download, failure: .backgroundAssets(code: 204, message: "refused \(index)"))
    }

    static func file() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "notice-backlog-\(UUID().uuidString)/com.example.app.jsonl")
    }

    @Test("Notices come back at most a thousand at a time, in the order they were added, across appends")
    func batchesInOrder() throws {
        let file = Self.file()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let backlog = try ExtensionNoticeBacklog(file: file)
        try backlog.append((0..<700).map(Self.notice))
        try backlog.append((700..<1_900).map(Self.notice))
        #expect(backlog.count == 1_900)
        let first = try backlog.takeBatch()
        #expect(first == (0..<1_000).map(Self.notice))
        try backlog.append((1_900..<2_500).map(Self.notice))
        #expect(try backlog.takeBatch() == (1_000..<2_000).map(Self.notice))
        #expect(try backlog.takeBatch() == (2_000..<2_500).map(Self.notice))
        #expect(backlog.count == 0)
        #expect(try backlog.takeBatch().isEmpty)
    }

    @Test("Only a running extension that checked in and is not ending owes calls the backlog can wait behind")
    func callsOwed() throws {
        let records = [ExtensionCallLifecycleTests.delivery(1), ExtensionCallLifecycleTests.delivery(2)]
        let app = try AppRegistryTests.sampleApp()
        let id = app.bundleIdentifier
        var lifecycle = ExtensionCallLifecycle(policy: ExtensionCallLifecycleTests.policy)
        #expect(lifecycle.callsOwed(by: id) == nil, "not running: calls wanted launch it")
        lifecycle.launched(app: id, pid: ExtensionCallLifecycleTests.pid, records: records, now: ExtensionCallLifecycleTests.t0)
        #expect(lifecycle.callsOwed(by: id) == nil, "not checked in yet")
        _ = lifecycle.checkedIn(app: id, pid: ExtensionCallLifecycleTests.pid, connection: ExtensionCallLifecycleTests.connection,
                                now: ExtensionCallLifecycleTests.at(0.5))
        _ = lifecycle.nextCall(of: id, now: ExtensionCallLifecycleTests.at(1))
        #expect(lifecycle.callsOwed(by: id) == 2, "the running call and the one queued")
        _ = lifecycle.kill(id, pid: ExtensionCallLifecycleTests.pid, reason: "test")
        #expect(lifecycle.callsOwed(by: id) == nil, "on its way out: calls wanted wait for a fresh launch")
    }

    @Test("A service starting removes the notices a service before it left waiting")
    func leftoversRemoved() throws {
        let root = try TemporaryDeviceRoot()
        let paths = DevicePaths(root: root.url)
        let folder = ExtensionHost.noticesFolder(in: paths)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let left = folder.appending(path: "com.example.app.jsonl")
        #expect(FileManager.default.createFile(atPath: left.path, contents: Data("{}\n".utf8)))
        let service = try BackgroundAssetsService(paths: paths, configuration: ServiceConfiguration(), wallClock: ManualClock(start: .now))
        #expect(!FileManager.default.fileExists(atPath: left.path))
        withExtendedLifetime(service) {}
    }

    @Test("The file goes with the backlog")
    func fileRemoved() throws {
        let file = Self.file()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        var backlog: ExtensionNoticeBacklog? = try ExtensionNoticeBacklog(file: file)
        try backlog?.append([Self.notice(1)])
        #expect(FileManager.default.fileExists(atPath: file.path))
        backlog = nil
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("A file cut short is an error that names it, not a notice made up")
    func truncatedFile() throws {
        let file = Self.file()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let backlog = try ExtensionNoticeBacklog(file: file)
        try backlog.append([Self.notice(1), Self.notice(2)])
        let handle = try FileHandle(forUpdating: file)
        try handle.truncate(atOffset: 10)
        try handle.close()
        #expect {
            try backlog.takeBatch()
        } throws: { error in
            "\(error)".contains(file.path) || (error as NSError).userInfo[NSFilePathErrorKey] as? String == file.path
        }
    }
}
