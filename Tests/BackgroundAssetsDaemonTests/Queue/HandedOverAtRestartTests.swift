/*
Abstract:
Tests that a download whose file was handed over just before the service stopped is finished at the next start, not fetched again.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Restarting after a hand-over", .timeLimit(.minutes(3)))
struct HandedOverAtRestartTests {
    /// A download left transferring, as a service killed mid-way leaves it, and a file in the hand-over folder.
    static func interruptedDownload(
        in harness: QueueHarness, identifier: String = "wwdc23-10108", fileSize: Int, handedOverBytes: Int?
    ) throws -> (row: DownloadRow, file: URL?) {
        // Nothing listens at this URL: if the queue fetched the file again, the transfer would fail.
        let descriptor = DownloadDescriptor(
            identifier: identifier, uniqueIdentifier: UUID().uuidString, url: "http://127.0.0.1:9/a.mp4",
            fileSize: fileSize, applicationGroupIdentifier: QueueHarness.appGroup)
        let row = try harness.store.insert(NewDownload(bundleIdentifier: QueueHarness.bundleIdentifier, descriptor: descriptor), at: .now)
        try harness.store.update(id: row.id, at: .now) { $0.state = .downloading }
        guard let handedOverBytes else { return (row, nil) }
        let folder = try #require(harness.paths.container(forAppGroup: QueueHarness.appGroup))
            .appending(path: StagingArea.handOverFolder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: StagingArea.handOverName(rowID: row.id))
        try Data(repeating: 7, count: handedOverBytes).write(to: file)
        return (row, file)
    }

    @Test("A whole file in the hand-over folder finishes its download at start; nothing is fetched")
    func finishesHandedOverDownload() async throws {
        let harness = try QueueHarness()
        let (row, file) = try Self.interruptedDownload(in: harness, fileSize: 4096, handedOverBytes: 4096)
        try await harness.queue.start()
        let stored = try #require(try harness.store.download(id: row.id))
        #expect(stored.state == .finished)
        #expect(stored.bytesDurable == 4096)
        #expect(FileManager.default.fileExists(atPath: try #require(file).path), "the file waits to be delivered again")
        #expect(harness.eventNames(of: row.id).isEmpty, "the download was not started again")
    }

    @Test("A file of another size, or none, leaves the download to run again")
    func otherDownloadsRunAgain() async throws {
        let harness = try QueueHarness()
        let (wrongSize, _) = try Self.interruptedDownload(in: harness, identifier: "a", fileSize: 4096, handedOverBytes: 100)
        let (noFile, _) = try Self.interruptedDownload(in: harness, identifier: "b", fileSize: 4096, handedOverBytes: nil)
        try await harness.queue.start()
        for row in [wrongSize, noFile] {
            #expect(try harness.store.download(id: row.id)?.state != .finished)
        }
    }
}

@Suite("Keeping a handed-over file until its delivery ends", .timeLimit(.minutes(3)))
struct HandOverKeptNameTests {
    @Test("A hand-over keeps a second name for the file, and releasing the delivery deletes both")
    func keepsAndReleases() throws {
        let harness = try QueueHarness()
        let staging = StagingArea(paths: harness.paths)
        try FileManager.default.createDirectory(at: harness.paths.stagingDirectory, withIntermediateDirectories: true)
        try Data(repeating: 3, count: 100).write(to: staging.partFile(forRow: 7))
        let file = try staging.handOver(rowID: 7, toAppGroup: QueueHarness.appGroup)
        let kept = StagingArea.keptName(of: file)
        #expect(try Data(contentsOf: kept) == Data(repeating: 3, count: 100))
        // The app moves the file away, as it was asked to; the kept name still holds the bytes.
        try FileManager.default.moveItem(at: file, to: harness.root.url.appending(path: "moved"))
        #expect(FileManager.default.fileExists(atPath: kept.path))
        StagingArea.release(handedOver: file)
        #expect(!FileManager.default.fileExists(atPath: kept.path))
    }

    @Test("A file moved by a process stopped before it put it in place is handed over again by the next service")
    func movedButNotPlaced() throws {
        let harness = try QueueHarness()
        let (row, handedOver) = try HandedOverAtRestartTests.interruptedDownload(in: harness, fileSize: 64, handedOverBytes: 64)
        try harness.store.update(id: row.id, at: .now) { $0.state = .finished }
        let file = try #require(handedOver)
        _ = link(file.path, StagingArea.keptName(of: file).path)
        // The extension renamed the file into its own folder, then its service was killed.
        try FileManager.default.moveItem(at: file, to: harness.root.url.appending(path: "extension-tmp"))

        let again = UndeliveredFiles.scan(paths: harness.paths, store: harness.store)
        #expect(again.map(\.rowID) == [row.id])
        #expect(try again.first.map { try Data(contentsOf: $0.file) } == Data(repeating: 7, count: 64))
    }
}
