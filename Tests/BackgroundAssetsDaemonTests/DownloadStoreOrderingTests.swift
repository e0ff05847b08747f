/*
Abstract:
Tests of the run order, and of a queue with 10,000 downloads.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Queue order")
struct DownloadStoreOrderingTests {
    @Test("Essential downloads run first, then foreground, then higher priority, then the oldest")
    func runOrder() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        func add(_ new: NewDownload, after seconds: Double) throws {
            _ = try store.insert(new, at: StoreFixture.epoch.addingTimeInterval(seconds))
        }
        try add(StoreFixture.download("old-low", priority: -5), after: 0)
        try add(StoreFixture.download("high", priority: 900), after: 1)
        try add(StoreFixture.download("foreground", foreground: true), after: 2)
        try add(StoreFixture.download("essential", essential: true, priority: -1000), after: 3)
        try add(StoreFixture.download("old-default"), after: 4)
        try add(StoreFixture.download("new-default"), after: 5)

        let now = StoreFixture.epoch.addingTimeInterval(10)
        let order = try identifiers(store.nextDownloadsToRun(limit: 10, at: now), in: store)
        #expect(order == ["essential", "foreground", "high", "old-default", "new-default", "old-low"])
        #expect(
            try identifiers(store.nextDownloadsToRun(limit: 2, at: now), in: store) == ["essential", "foreground"])
        #expect(try store.nextDownloadsToRun(limit: 10, at: now).map(\.isForeground) == [false, true, false, false, false, false])
        #expect(try store.currentDownloads(bundleIdentifier: StoreFixture.app).map(\.descriptor.identifier) == order)
    }

    @Test("Downloads that are running, ended, or backing off are not offered")
    func onlyDueWaitingDownloads() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let running = try store.insert(StoreFixture.download("running"), at: StoreFixture.epoch)
        let backingOff = try store.insert(StoreFixture.download("backing-off"), at: StoreFixture.epoch)
        let failed = try store.insert(StoreFixture.download("failed"), at: StoreFixture.epoch)
        _ = try store.insert(StoreFixture.download("due"), at: StoreFixture.epoch)
        try store.update(id: running.id, at: StoreFixture.epoch) { $0.state = .downloading }
        try store.update(id: failed.id, at: StoreFixture.epoch) { $0.state = .failed }
        try store.update(id: backingOff.id, at: StoreFixture.epoch) {
            $0.nextAttemptAt = StoreFixture.epoch.addingTimeInterval(30)
        }
        let soon = StoreFixture.epoch.addingTimeInterval(10)
        #expect(try identifiers(store.nextDownloadsToRun(limit: 10, at: soon), in: store) == ["due"])
        let later = StoreFixture.epoch.addingTimeInterval(30)
        #expect(
            try identifiers(store.nextDownloadsToRun(limit: 10, at: later), in: store) == ["backing-off", "due"])
    }

    /// What SQLite plans for a query, one line per step.
    private func plan(_ sql: String, _ bindings: [SQLiteValue], in store: DownloadStore) throws -> [String] {
        try store.withDatabase { database in
            try database.prepare("EXPLAIN QUERY PLAN " + sql).bind(bindings).rows { $0.text(3) }
        }
    }

    @Test("The run order is served by an index, not by sorting the whole table")
    func runOrderUsesIndex() throws {
        let fixture = try StoreFixture()
        let plan = try plan(
            "SELECT id FROM downloads INDEXED BY downloads_run_order_unparked WHERE state = 1 AND \(DownloadStore.unparked) "
                + "AND next_attempt_at <= ? ORDER BY \(DownloadStore.runOrder) LIMIT ?",
            [.integer(0), .integer(10)], in: fixture.store)
        #expect(plan.contains { $0.contains("downloads_run_order_unparked") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test("An app's current downloads and whether any download is active come from indexes, not from every row")
    func activeDownloadsUseIndexes() throws {
        let fixture = try StoreFixture()
        _ = try fixture.store.currentDownloads(bundleIdentifier: StoreFixture.app)
        let current = try plan(
            "SELECT id FROM downloads INDEXED BY downloads_active_identifier WHERE app_bundle_id = ? AND state BETWEEN 0 AND 2 "
                + "ORDER BY \(DownloadStore.runOrder)",
            [.text(StoreFixture.app)], in: fixture.store)
        #expect(current.contains { $0.contains("USING INDEX downloads_active_identifier (app_bundle_id=?)") }, "\(current)")
        #expect(try fixture.store.hasUnfinishedDownloads() == false)
        _ = try fixture.store.insert(StoreFixture.download("a"), at: StoreFixture.epoch)
        #expect(try fixture.store.hasUnfinishedDownloads())
    }

    @Test("A download's start rewrites five pages of the queue and its end three: its row and the indexes that name its state")
    func stateChangesWriteFewPages() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        // Enough rows that each index spans several pages, as in a queue of thousands; unique
        // identifiers in order, so the pages are laid out the same in every run (random ones left
        // some leaves fuller than others, and removing an entry from a thin one also rewrote its
        // neighbour).
        let rows = try store.insert((0..<2_000).map {
            StoreFixture.download("session-\($0)", uniqueIdentifier: String(format: "%08d-0000-4000-8000-000000000000", $0))
        }, at: StoreFixture.epoch)
        let log = fixture.url.path + "-wal"
        func framesWritten(_ change: () throws -> Void) throws -> Int {
            let before = try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int ?? 0
            try change()
            let after = try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int ?? 0
            // Each frame of the write-ahead log is a page and its 24-byte header.
            return (after - before) / (4096 + 24)
        }
        let row = rows[1_000]
        let started = try framesWritten {
            try store.update(id: row.id, at: StoreFixture.epoch, waitsForDisk: false) { $0.state = .downloading }
        }
        let ended = try framesWritten {
            try store.update(id: row.id, at: StoreFixture.epoch, waitsForDisk: false) { $0.state = .finished }
        }
        // SQLite rewrites the entry of every index whose columns or condition name a changed
        // column, moved or not: the start rewrites the two active indexes' entries in place.
        #expect(started == 5, "the row, the due index, the unparked run order and the two active indexes")
        #expect(ended == 3, "the row and the two active indexes")
    }

    @Test("Ten thousand downloads are scheduled in one transaction and read back in order")
    func tenThousandDownloads() throws {
        let fixture = try StoreFixture()
        let downloads = (0..<10_000).map { index in
            StoreFixture.download("session-\(index)", priority: index % 7 == 0 ? 500 : 0)
        }
        let rows = try fixture.store.insert(downloads, at: StoreFixture.epoch)
        #expect(rows.count == 10_000)
        #expect(Set(rows.map(\.id)).count == 10_000)

        let current = try fixture.store.currentDownloads(bundleIdentifier: StoreFixture.app)
        #expect(current.count == 10_000)
        let firstDefault = try #require(current.firstIndex { $0.descriptor.priority == 0 })
        #expect(current[..<firstDefault].allSatisfy { $0.descriptor.priority == 500 })
        #expect(current[firstDefault...].allSatisfy { $0.descriptor.priority == 0 })
        #expect(current[firstDefault].descriptor.identifier == "session-1")

        let next = try fixture.store.nextDownloadsToRun(limit: 4, at: StoreFixture.epoch)
        #expect(try identifiers(next, in: fixture.store) == ["session-0", "session-7", "session-14", "session-21"])
    }

    /// The app-specific identifiers of due downloads, in the order given.
    private func identifiers(_ due: [DownloadStore.DueDownload], in store: DownloadStore) throws -> [String] {
        try due.map { try #require(try store.download(id: $0.id)).descriptor.identifier }
    }
}
