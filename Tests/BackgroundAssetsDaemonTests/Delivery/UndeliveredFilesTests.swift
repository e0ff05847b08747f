/*
Abstract:
Tests that the files a stopped service left for their owners are found by the next one, before any transfer resumes.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Finding the files an earlier service left", .timeLimit(.minutes(3)))
struct UndeliveredFilesTests {
    @Test("Files from an earlier run are found by their names; stale ones are deleted")
    func foundByName() throws {
        let fixture = try StoreFixture()
        let paths = DevicePaths(root: fixture.directory.url)
        let finished = try fixture.store.insert(StoreFixture.download("finished"), at: StoreFixture.epoch)
        try fixture.store.update(id: finished.id, at: StoreFixture.epoch) { $0.state = .finished }
        let running = try fixture.store.insert(StoreFixture.download("running"), at: StoreFixture.epoch)
        let folder = try #require(paths.container(forAppGroup: "group.com.example.sessions"))
            .appending(path: StagingArea.handOverFolder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let names = [
            StagingArea.handOverName(rowID: finished.id), StagingArea.handOverName(rowID: running.id),
            StagingArea.handOverName(rowID: 999), "manifest.json",
        ]
        for name in names { try Data("x".utf8).write(to: folder.appending(path: name)) }

        let found = UndeliveredFiles.scan(paths: paths, store: fixture.store)
        #expect(found.map(\.rowID) == [finished.id], "only the finished download's file")
        #expect(found.first?.app == StoreFixture.app)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!left.contains(names[2]), "a file whose download is gone is deleted")
        #expect(!left.contains(names[1]), "a file whose download runs again is deleted: it hands over its own")
        #expect(Set(left) == [names[0], names[3]])
    }

    @Test("A held file and its kept name are found by every restarted queue, whatever happened to its first name")
    func heldFileSurvivesRestarts() async throws {
        let harness = try QueueHarness()
        let (row, handedOver) = try HandedOverAtRestartTests.interruptedDownload(in: harness, fileSize: 64, handedOverBytes: 64)
        let file = try #require(handedOver)
        // The hand-over kept its second name; the service was killed before it recorded the end.
        _ = link(file.path, StagingArea.keptName(of: file).path)
        for restart in 1...3 {
            let found = try await harness.queue.filesLeftForTheirOwners()
            #expect(found.map(\.rowID) == [row.id], "restart \(restart)")
            #expect(found.first?.row.state == .finished, "the download is finished: its file is whole")
            #expect(try found.first.map { try Data(contentsOf: $0.file) } == Data(repeating: 7, count: 64))
            // A delegate moved the file away and was stopped before it put it in place.
            try FileManager.default.moveItem(at: file, to: harness.root.url.appending(path: "moved-\(restart)"))
        }
        #expect(harness.eventNames(of: row.id).isEmpty, "nothing was fetched again")
    }
}
