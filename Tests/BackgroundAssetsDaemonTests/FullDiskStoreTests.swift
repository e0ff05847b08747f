/*
Abstract:
Tests that a store that cannot be written because the disk is full says so, instead of SQLite's "disk I/O error".
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing
import TestSupport

@Suite("A store on a full disk", .enabled(if: SmallFileSystem.isAvailable, "mounting a tmpfs needs root"))
struct FullDiskStoreTests {
    @Test("Opening the queue on a full disk names the full disk and what to do, not 'disk I/O error'")
    func openingOnAFullDisk() throws {
        let disk = try SmallFileSystem(size: 1 << 20)
        defer { disk.unmount() }
        // Fill the disk to the last block, as a newcomer's full laptop is.
        let filler = disk.url.appending(path: "filler").path
        #expect(FileManager.default.createFile(atPath: filler, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: filler))
        let block = Data(repeating: 0, count: 4096)
        while (try? handle.write(contentsOf: block)) != nil {}
        try? handle.close()
        do {
            _ = try DownloadStore(url: disk.url.appending(path: "queue.sqlite"))
            Issue.record("The store opened on a full disk.")
        } catch let error as DaemonError {
            guard case let .diskFull(_, free, _) = error else {
                Issue.record("Not named as a full disk: \(error)")
                return
            }
            #expect(free < SQLiteDatabase.nearlyFull)
            #expect(error.description.contains("is full"))
            #expect(error.description.contains("Free space"))
            #expect(!error.description.contains("disk I/O error"))
        }
    }
}
