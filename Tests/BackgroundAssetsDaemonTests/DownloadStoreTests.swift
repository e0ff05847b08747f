/*
Abstract:
Tests of the queue: schema migrations, adding and changing downloads, durability across reopening.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Download queue")
struct DownloadStoreTests {
    @Test("A new queue is migrated from empty to the current schema")
    func migrationFromEmpty() throws {
        let fixture = try StoreFixture()
        let version = try fixture.store.withDatabase { try $0.userVersion() }
        #expect(version == DownloadStore.schemaVersion)
        #expect(DownloadStore.schemaVersion >= 1)
        let mode = try fixture.store.withDatabase { try $0.prepare("PRAGMA journal_mode").rows { $0.text(0) } }
        #expect(mode == ["wal"])
        fixture.store.close()
        let reopened = try fixture.reopen()
        #expect(try reopened.withDatabase { try $0.userVersion() } == version)
    }

    @Test("A queue written by a newer service is refused, not guessed at")
    func newerSchemaRefused() throws {
        let fixture = try StoreFixture()
        try fixture.store.withDatabase { try $0.execute("PRAGMA user_version = 99") }
        fixture.store.close()
        #expect(
            throws: DaemonError.schemaTooNew(found: 99, supported: DownloadStore.schemaVersion, path: fixture.url.path)
        ) {
            try fixture.reopen()
        }
    }

    @Test("Scheduling stores a waiting download with a row id")
    func insert() throws {
        let fixture = try StoreFixture()
        let row = try fixture.store.insert(StoreFixture.download("a", foreground: true), at: StoreFixture.epoch)
        #expect(row.id > 0)
        #expect(row.state == .waiting)
        #expect(row.isForeground)
        #expect(row.createdAt == StoreFixture.epoch)
        #expect(try fixture.store.download(id: row.id) == row)
        #expect(try fixture.store.download(uniqueIdentifier: row.descriptor.uniqueIdentifier) == row)
        #expect(try fixture.store.activeDownload(bundleIdentifier: StoreFixture.app, identifier: "a") == row)
    }

    @Test("The identifiers on their way are found among thousands asked about, across batches, and only the app's active ones")
    func activeIdentifiersAmongMany() throws {
        let fixture = try StoreFixture()
        let identifiers = (0..<(2 * DownloadStore.identifierBatch + 7)).map { "session-\($0)" }
        let rows = try fixture.store.insert(identifiers.map { StoreFixture.download($0) }, at: StoreFixture.epoch)
        for row in rows where row.id % 3 == 0 {
            try fixture.store.update(id: row.id, at: StoreFixture.epoch) { $0.state = .failed }
        }
        _ = try fixture.store.insert(StoreFixture.download("elsewhere", app: "com.example.other"), at: StoreFixture.epoch)
        var pack = StoreFixture.download("asset-pack.Talks.v1")
        pack.descriptor.kind = .assetPack
        _ = try fixture.store.insert(pack, at: StoreFixture.epoch)

        let asked = identifiers + ["elsewhere", "asset-pack.Talks.v1", "never-scheduled"]
        let active = try fixture.store.activeIdentifiers(bundleIdentifier: StoreFixture.app, among: asked)
        let expected = Set(try asked.filter { try fixture.store.activeDownload(bundleIdentifier: StoreFixture.app, identifier: $0) != nil })
        #expect(active == expected)
        #expect(active.count == rows.filter { $0.id % 3 != 0 }.count)
        #expect(try fixture.store.activeIdentifiers(bundleIdentifier: StoreFixture.app, among: []).isEmpty)
    }

    @Test("An identifier names one download of an app at a time")
    func duplicateIdentifiers() throws {
        let fixture = try StoreFixture()
        let first = try fixture.store.insert(StoreFixture.download("a"), at: StoreFixture.epoch)
        #expect(throws: DaemonError.downloadAlreadyScheduled(bundleIdentifier: StoreFixture.app, identifier: "a")) {
            try fixture.store.insert(StoreFixture.download("a"), at: StoreFixture.epoch)
        }
        _ = try fixture.store.insert(StoreFixture.download("a", app: "com.example.other"), at: StoreFixture.epoch)

        // After the essential download fails, its non-essential copy keeps both identifiers.
        try fixture.store.update(id: first.id, at: StoreFixture.epoch) { $0.state = .failed }
        var copy = StoreFixture.download("a", uniqueIdentifier: first.descriptor.uniqueIdentifier)
        copy.descriptor.isEssential = false
        let again = try fixture.store.insert(copy, at: StoreFixture.epoch.addingTimeInterval(1))
        #expect(again.id != first.id)
        #expect(try fixture.store.download(uniqueIdentifier: first.descriptor.uniqueIdentifier)?.id == again.id)
    }

    @Test("A change that throws is rolled back")
    func updateRollsBack() throws {
        struct Refused: Error {}
        let fixture = try StoreFixture()
        let row = try fixture.store.insert(StoreFixture.download("a"), at: StoreFixture.epoch)
        #expect(throws: Refused.self) {
            try fixture.store.update(id: row.id, at: StoreFixture.epoch.addingTimeInterval(5)) { row in
                row.state = .downloading
                row.bytesDurable = 500
                throw Refused()
            }
        }
        #expect(try fixture.store.download(id: row.id) == row)
        #expect(throws: DaemonError.downloadNotFound(key: "row 999")) {
            try fixture.store.update(id: 999, at: StoreFixture.epoch) { _ in }
        }
    }

    @Test("A batch with one duplicate adds nothing")
    func batchRollsBack() throws {
        let fixture = try StoreFixture()
        _ = try fixture.store.insert(StoreFixture.download("c"), at: StoreFixture.epoch)
        let batch = ["a", "b", "c", "d"].map { StoreFixture.download($0) }
        #expect(throws: DaemonError.downloadAlreadyScheduled(bundleIdentifier: StoreFixture.app, identifier: "c")) {
            try fixture.store.insert(batch, at: StoreFixture.epoch)
        }
        #expect(try fixture.store.allDownloads().map(\.descriptor.identifier) == ["c"])
    }

    @Test("Every field survives closing and reopening the queue")
    func reopenKeepsData() throws {
        let fixture = try StoreFixture()
        var new = StoreFixture.download("../../x\0 \u{202E} é", essential: true, priority: -7)
        new.descriptor.headers = ["Authorization": "Basic eDp5", "X-Odd": "\"quoted\"\n"]
        let row = try fixture.store.insert(new, at: StoreFixture.epoch)
        let later = StoreFixture.epoch.addingTimeInterval(60.123)
        let changed = try fixture.store.update(id: row.id, at: later) { row in
            row.state = .downloading
            row.isForeground = true
            row.bytesDurable = 5_000_000_000
            row.expectedLength = 6_000_000_000
            row.entityTag = "\"v1\""
            row.lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"
            row.attempts = 3
            row.lastError = WireFailure(
                domain: WireFailure.urlDomain, code: -1005, message: "The network connection was lost.")
            row.nextAttemptAt = later.addingTimeInterval(30)
            row.lastProgressAt = later
            row.descriptor.url = "https://cdn.example.com/moved"
        }
        fixture.store.close()
        #expect(throws: DaemonError.self) { try fixture.store.allDownloads() }

        let reopened = try fixture.reopen()
        #expect(try reopened.download(id: row.id) == changed)
        #expect(changed.descriptor.identifier == "../../x\0 \u{202E} é")
        #expect(abs(changed.updatedAt.timeIntervalSince(later)) < 0.001)
        #expect(changed.lastError?.code == -1005)
        #expect(changed.descriptor.headers["X-Odd"] == "\"quoted\"\n")
    }

    @Test("A service restarted without closing the queue finds every committed change")
    func restartWithoutClose() throws {
        let fixture = try StoreFixture()
        let row = try fixture.store.insert(StoreFixture.download("a"), at: StoreFixture.epoch)
        try fixture.store.recordCheckpoint(id: row.id, bytesDurable: 4096, at: StoreFixture.epoch)
        // The first store stays open, as it would in a service killed with SIGKILL: what it committed
        // lives in the write-ahead log until a checkpoint, and the next service must read it from there.
        let restarted = try fixture.reopen()
        #expect(try restarted.download(id: row.id)?.bytesDurable == 4096)
        let walSize = try FileManager.default.attributesOfItem(atPath: fixture.url.path + "-wal")[.size] as? Int
        #expect((walSize ?? 0) > 0, "the commits were in the WAL, not only in the main file")
    }

    @Test("A checkpoint records durable bytes and counts as progress")
    func checkpoint() throws {
        let fixture = try StoreFixture()
        let row = try fixture.store.insert(StoreFixture.download("a"), at: StoreFixture.epoch)
        let now = StoreFixture.epoch.addingTimeInterval(2)
        try fixture.store.recordCheckpoint(id: row.id, bytesDurable: 1 << 20, at: now)
        let stored = try #require(try fixture.store.download(id: row.id))
        #expect(stored.bytesDurable == 1 << 20)
        #expect(stored.lastProgressAt == now)
        #expect(throws: DaemonError.downloadNotFound(key: "row 12345")) {
            try fixture.store.recordCheckpoint(id: 12345, bytesDurable: 1, at: now)
        }
    }

    @Test("Progress commits without waiting for the disk; every other change still waits for it")
    func progressDoesNotWaitForTheDisk() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let synchronous = try store.withDatabase { try $0.prepare("PRAGMA synchronous").rows { $0.int(0) }.first }
        #expect(synchronous == 1, "NORMAL: SQLite itself syncs no commit; a change that waits syncs the log")
        let synced = store.writeAheadLogSyncs
        let row = try store.insert(StoreFixture.download("a"), at: StoreFixture.epoch)
        #expect(store.writeAheadLogSyncs == synced + 1, "a schedule is on disk when it returns")
        try store.recordCheckpoint(id: row.id, bytesDurable: 4096, at: StoreFixture.epoch)
        try store.update(id: row.id, at: StoreFixture.epoch, waitsForDisk: false) { $0.state = .downloading }
        _ = try store.download(id: row.id)
        _ = try store.nextDownloadsToRun(limit: 4, at: StoreFixture.epoch)
        #expect(store.writeAheadLogSyncs == synced + 1, "progress, the end of an attempt and reads sync nothing")
        try store.update(id: row.id, at: StoreFixture.epoch) { $0.state = .waiting }
        #expect(store.writeAheadLogSyncs == synced + 2, "any other change is on disk when it returns")
        #expect(throws: DaemonError.self) {
            try store.update(id: row.id, at: StoreFixture.epoch) { _ in throw DaemonError.downloadNotFound(key: "x") }
        }
        #expect(store.writeAheadLogSyncs == synced + 2, "a change that wrote nothing has nothing to sync")
        #expect(try fixture.reopen().download(id: row.id)?.bytesDurable == 4096, "committed all the same")
    }

    @Test("Several downloads change in one commit, each on its own: one that is gone or refuses its change is left out")
    func changesEachInOneCommit() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let rows = try ["a", "b", "c"].map { try store.insert(StoreFixture.download($0), at: StoreFixture.epoch) }
        let later = StoreFixture.epoch.addingTimeInterval(5)
        let commits = store.commits
        let outcomes = try store.updateEach([rows[0].id, 12345, rows[1].id, rows[2].id], at: later, waitsForDisk: false) { index, row in
            if row.descriptor.identifier == "b" { throw DaemonError.downloadNotFound(key: "refused by the change") }
            row.state = .downloading
            row.attempts = index
        }
        #expect(store.commits == commits + 1, "one transaction for all four")
        #expect(outcomes.count == 4)
        #expect((try? outcomes[0].get())?.attempts == 0)
        #expect((try? outcomes[3].get())?.attempts == 3, "each change is given its index")
        #expect(throws: DaemonError.downloadNotFound(key: "row 12345")) { try outcomes[1].get() }
        #expect(throws: DaemonError.downloadNotFound(key: "refused by the change")) { try outcomes[2].get() }
        let reopened = try fixture.reopen()
        #expect(try reopened.download(id: rows[0].id)?.state == .downloading)
        #expect(try reopened.download(id: rows[0].id)?.updatedAt == later)
        #expect(try reopened.download(id: rows[1].id) == rows[1], "a change that throws writes nothing")
        #expect(try reopened.download(id: rows[2].id)?.attempts == 3)
        #expect(try store.updateEach([], at: later) { _, _ in }.isEmpty)
        #expect(store.commits == commits + 1, "nothing to change, no transaction")
    }

    @Test("Ended downloads leave the current list and are pruned after a while")
    func endedDownloads() throws {
        let fixture = try StoreFixture()
        let finished = try fixture.store.insert(StoreFixture.download("finished"), at: StoreFixture.epoch)
        let waiting = try fixture.store.insert(StoreFixture.download("waiting"), at: StoreFixture.epoch)
        try fixture.store.update(id: finished.id, at: StoreFixture.epoch) { $0.state = .finished }
        #expect(try fixture.store.currentDownloads(bundleIdentifier: StoreFixture.app).map(\.id) == [waiting.id])
        #expect(try fixture.store.countsByState() == [.finished: 1, .waiting: 1])
        #expect(try fixture.store.deleteEndedDownloads(before: StoreFixture.epoch) == 0)
        #expect(try fixture.store.deleteEndedDownloads(before: StoreFixture.epoch.addingTimeInterval(1)) == 1)
        #expect(try fixture.store.allDownloads().map(\.id) == [waiting.id])
        #expect(try fixture.store.delete(id: waiting.id))
        #expect(try !fixture.store.delete(id: waiting.id))
    }

    @Test("SQLite errors carry SQLite's own message")
    func sqliteMessages() throws {
        let fixture = try StoreFixture()
        do {
            try fixture.store.withDatabase { try $0.execute("SELECT * FROM no_such_table") }
            Issue.record("the query should fail")
        } catch let DaemonError.sqlite(_, message, context) {
            #expect(message.contains("no_such_table"))
            #expect(context.contains("SELECT"))
        }
        #expect(throws: DaemonError.self) {
            try DownloadStore(url: fixture.directory.appending("missing-folder/queue.sqlite"))
        }
    }

    @Test("The debug tool's status reports progress, the expected size and a pending retry")
    func statusReport() throws {
        let fixture = try StoreFixture()
        let row = try fixture.store.insert(StoreFixture.download("a", essential: true), at: StoreFixture.epoch)
        #expect(row.status.bytesExpected == 100, "the declared size until the server reports one")
        #expect(row.status.nextAttemptAt == nil)
        let retryAt = StoreFixture.epoch.addingTimeInterval(30)
        let backingOff = try fixture.store.update(id: row.id, at: StoreFixture.epoch) { row in
            row.bytesDurable = 40
            row.expectedLength = 120
            row.attempts = 1
            row.nextAttemptAt = retryAt
        }
        let status = backingOff.status
        #expect(status.bytesWritten == 40 && status.bytesExpected == 120 && status.attempts == 1)
        #expect(status.nextAttemptAt == retryAt)
        #expect(status.bundleIdentifier == StoreFixture.app)
        #expect(backingOff.snapshot.state == .waiting)
    }
}
