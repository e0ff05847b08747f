/*
Abstract:
The service's durable download queue: an SQLite database in WAL mode behind one lock.
*/

import BackgroundAssetsIPC
import CSQLite
import Foundation
import Synchronization

/// The download queue, stored in `system/queue.sqlite` under the device root.
///
/// Every change is one transaction, committed before the method returns: when `insert` returns,
/// the download survives `kill -9` of the service and a power cut, so the service can acknowledge
/// the schedule (or, inserted with ``CommitDurability/answerWaits``, once ``whenDurable(through:_:)``
/// says so, a sync shared with the inserts around it). What happens to a download afterwards as it runs (an attempt starting, a
/// checkpoint, a promotion, its end) is committed without waiting for the disk: it survives
/// `kill -9`, and a power cut can only take back the last of it, which the next boot redoes (the
/// download is fetched again from an earlier checkpoint, cut back to match, and handed over again;
/// see ``recordCheckpoint(id:bytesDurable:boot:validator:at:)``). Waiting for the disk there cost
/// a sync per step, most of the time of a small download.
/// Calls block on disk I/O; they are serialised by a lock, so call them from a context that may
/// block (not from an actor that must stay responsive).
public final class DownloadStore: Sendable {
    /// The connection, or nil once closed. SQLite's own mutex is off; this lock is the only guard.
    private let database: Mutex<SQLiteDatabase?>
    /// A second connection for the questions the service asks while it serves clients (status, an
    /// app's current downloads): in WAL mode it reads the last commit without waiting for a write in
    /// progress on the first one, so a slow disk slows writes, not answers.
    private let reader: Mutex<SQLiteDatabase?>
    /// A third connection for the lookups of one row the service makes on its own thread, where a
    /// hop to the reader's thread and back took longer than the read: never held for a page of
    /// rows, so a lookup waits for no `status` in progress either.
    private let lookups: Mutex<SQLiteDatabase?>
    /// Runs before every use of the writing connection; a test holds writes back with it.
    let beforeWrite = Mutex<(@Sendable () -> Void)?>(nil)
    /// The database file's path.
    public let path: String
    /// Makes deferred changes durable, a sync for all the changes committed while the previous one ran.
    private let syncer: WriteAheadLogSyncer

    /// Opens the queue at a path, creating and migrating it as needed.
    ///
    /// The connection uses WAL with `synchronous=NORMAL`, and a change that must survive a power
    /// cut syncs the write-ahead log itself before it returns (see ``withDatabase(waitsForDisk:_:)``).
    /// Readers never block the writer.
    /// - Parameters:
    ///   - url: The database file, usually ``DevicePaths/queueDatabase``.
    ///   - soonSyncDelay: How long an insert of ``CommitDurability/soon`` may stay off the disk.
    /// - Throws: ``DaemonError`` when the file cannot be opened or its schema is newer than this service.
    public init(url: URL, soonSyncDelay: Duration = .seconds(1)) throws {
        path = url.path
        let connection = try SQLiteDatabase.openStore(path: url.path, migrations: Self.migrations)
        // Set once: switching it around each relaxed change made SQLite compile the PRAGMA anew
        // every time (a third of the service's statements were recompiled).
        try connection.execute("PRAGMA synchronous = NORMAL")
        database = Mutex(connection)
        reader = Mutex(try Self.openReadOnly(path: url.path))
        lookups = Mutex(try Self.openReadOnly(path: url.path))
        syncer = WriteAheadLogSyncer(logPath: url.path + "-wal", soonDelay: soonSyncDelay)
    }

    deinit {
        syncer.stop()
    }

    /// A connection that only reads, opened whole now.
    private static func openReadOnly(path: String) throws -> SQLiteDatabase {
        let reading = try SQLiteDatabase(path: path)
        try reading.execute("PRAGMA query_only = ON")
        // A first read opens the connection's write-ahead log and shared memory now, not when a
        // client first asks, which at the descriptor limit could not open them.
        _ = try reading.userVersion()
        return reading
    }

    /// Closes the queue; later calls throw.
    public func close() {
        syncer.stop()
        close(database)
        close(reader)
        close(lookups)
    }

    private func close(_ guarded: borrowing Mutex<SQLiteDatabase?>) {
        guarded.withLock { connection in
            connection?.close()
            connection = nil
        }
    }

    /// Runs `body` with the open connection while holding the lock.
    /// - Parameters:
    ///   - waitsForDisk: Whether the changes `body` commits are on disk when this returns, so they
    ///     survive a power cut (the write-ahead log is synced once, after `body`, when it changed
    ///     rows), or only in the kernel: enough to survive a crash of the service, not a power
    ///     cut. A later change that waits makes both durable. Reads wait for nothing either way.
    ///   - body: The work, given the connection.
    func withDatabase<Result: Sendable>(
        waitsForDisk: Bool = true, _ body: (SQLiteDatabase) throws -> Result
    ) throws -> Result {
        beforeWrite.withLock { $0 }?()
        return try database.withLock { connection throws -> Result in
            guard let connection else {
                throw DaemonError.sqlite(code: SQLITE_MISUSE, message: "the queue is closed", context: "using \(path)")
            }
            let changesBefore = connection.totalChangedRowCount
            let result = try body(connection)
            if waitsForDisk, connection.totalChangedRowCount != changesBefore {
                try connection.syncWriteAheadLog()
                syncer.synced(through: connection.totalChangedRowCount)
            }
            return result
        }
    }

    /// Runs a read with the reading connection, which never waits for a write in progress.
    /// - Parameter body: The read, given the connection; it must not change anything (the
    ///   connection is `query_only`).
    func withReader<Result: Sendable>(_ body: (SQLiteDatabase) throws -> Result) throws -> Result {
        try read(with: reader, body)
    }

    /// Runs a lookup of a row or two with the lookups' connection, which never waits for a write in
    /// progress nor for a page of rows being read.
    /// - Parameter body: The lookup, given the connection; it must not change anything.
    func withLookupConnection<Result: Sendable>(_ body: (SQLiteDatabase) throws -> Result) throws -> Result {
        try read(with: lookups, body)
    }

    private func read<Result: Sendable>(
        with readOnly: borrowing Mutex<SQLiteDatabase?>, _ body: (SQLiteDatabase) throws -> Result
    ) throws -> Result {
        try readOnly.withLock { connection throws -> Result in
            guard let connection else {
                throw DaemonError.sqlite(code: SQLITE_MISUSE, message: "the queue is closed", context: "reading \(path)")
            }
            return try body(connection)
        }
    }

    /// The row writes since the queue opened. Each is a commit (and a schedule's, a sync of the
    /// disk), so tests keep the number per download in check.
    var rowWrites: Int {
        (try? withDatabase { $0.totalChangedRowCount }) ?? 0
    }

    /// The transactions committed since the queue opened, for tests that count commits per download.
    var commits: Int {
        (try? withDatabase { $0.commits }) ?? 0
    }

    /// The syncs of the write-ahead log since the queue opened: one per change that waits for the disk.
    var writeAheadLogSyncs: Int {
        (try? withDatabase { $0.writeAheadLogSyncs }) ?? 0
    }

    /// The changes committed with ``insert(_:at:durability:)`` and ``CommitDurability/answerWaits``,
    /// not yet on disk: the ticket to wait for with ``whenDurable(through:_:)``, or `nil` when
    /// everything such is on disk. Inserts of ``CommitDurability/soon`` take no part in it.
    public var unsyncedTicket: Int? {
        syncer.unsyncedTicket
    }

    /// The changes committed with ``CommitDurability/soon`` not yet on disk, if any, for tests.
    var unsyncedSoonTicket: Int? {
        syncer.unsyncedSoonTicket
    }

    /// Calls `completion` once the changes up to `ticket` are on disk; `false` when the sync failed or
    /// the store closed. Returns at once: the changes of other callers keep committing meanwhile, and
    /// one sync covers all of them.
    public func whenDurable(through ticket: Int, _ completion: @escaping @Sendable (_ isDurable: Bool) -> Void) {
        syncer.whenDurable(through: ticket, completion)
    }

    /// Returns once the changes up to `ticket` are on disk: `false` when the sync failed or the store closed.
    public func durable(through ticket: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            whenDurable(through: ticket) { continuation.resume(returning: $0) }
        }
    }

    /// The syncs shared by deferred changes so far, for tests.
    var sharedSyncs: Int {
        syncer.syncCount
    }

    // MARK: - Adding

    /// Adds a download to the queue in the waiting state.
    /// - Parameters:
    ///   - download: The download to add.
    ///   - now: The time the download is scheduled.
    /// - Returns: The stored row.
    /// - Throws: ``DaemonError/downloadAlreadyScheduled(bundleIdentifier:identifier:)`` when the app has a
    ///   download with this identifier (or unique identifier) that has not ended.
    public func insert(_ download: NewDownload, at now: Date) throws -> DownloadRow {
        try insert([download], at: now)[0]
    }

    /// Adds several downloads in one transaction: all of them, or none when one is refused.
    /// - Parameters:
    ///   - downloads: The downloads to add.
    ///   - now: The time they are scheduled.
    ///   - durability: When they reach the disk: before this returns (``CommitDurability/synced``),
    ///     or later, the caller's answer waiting for ``unsyncedTicket`` with ``whenDurable(through:_:)``
    ///     (``CommitDurability/answerWaits``) or nobody waiting (``CommitDurability/soon``).
    /// - Returns: The stored rows, in the same order.
    /// - Throws: ``DaemonError/downloadAlreadyScheduled(bundleIdentifier:identifier:)`` for the first
    ///   duplicate; nothing is added.
    public func insert(_ downloads: [NewDownload], at now: Date, durability: CommitDurability = .synced) throws -> [DownloadRow] {
        try withDatabase(waitsForDisk: durability == .synced) { database in
            let rows = try database.transaction {
                try downloads.map { download in
                    let row = Self.newRow(download, at: now)
                    do {
                        try database.prepare(Self.insertSQL).bind(Self.insertValues(row)).run()
                    } catch DaemonError.sqlite(let code, _, _) where code == SQLiteDatabase.constraintUnique {
                        throw DaemonError.downloadAlreadyScheduled(
                            bundleIdentifier: download.bundleIdentifier, identifier: download.descriptor.identifier)
                    }
                    return row.with(id: database.lastInsertedRowID)
                }
            }
            owe(durability, through: database.totalChangedRowCount)
            return rows
        }
    }

    /// Adds several downloads in one transaction, each on its own: one that duplicates a download
    /// not ended is refused alone, and the others are added.
    ///
    /// A refused insert rolls back only itself (SQLite's default conflict resolution aborts the
    /// statement, not the transaction), so the commit covers every other download.
    /// - Parameters:
    ///   - downloads: The downloads to add.
    ///   - now: The time they are scheduled.
    ///   - durability: As for ``insert(_:at:durability:)``.
    /// - Returns: Each download's stored row, or ``DaemonError/downloadAlreadyScheduled(bundleIdentifier:identifier:)``, in order.
    /// - Throws: Any other error; nothing is added.
    public func insertEach(
        _ downloads: [NewDownload], at now: Date, durability: CommitDurability = .synced
    ) throws -> [Result<DownloadRow, DaemonError>] {
        try withDatabase(waitsForDisk: durability == .synced) { database in
            let outcomes = try database.transaction {
                try downloads.map { download -> Result<DownloadRow, DaemonError> in
                    let row = Self.newRow(download, at: now)
                    do {
                        try database.prepare(Self.insertSQL).bind(Self.insertValues(row)).run()
                    } catch DaemonError.sqlite(let code, _, _) where code == SQLiteDatabase.constraintUnique {
                        return .failure(.downloadAlreadyScheduled(
                            bundleIdentifier: download.bundleIdentifier, identifier: download.descriptor.identifier))
                    }
                    return .success(row.with(id: database.lastInsertedRowID))
                }
            }
            owe(durability, through: database.totalChangedRowCount)
            return outcomes
        }
    }

    /// Tells the syncer about changes committed up to `ticket` that are not on disk yet.
    private func owe(_ durability: CommitDurability, through ticket: Int) {
        switch durability {
        case .synced: break
        case .answerWaits: syncer.committed(through: ticket)
        case .soon: syncer.syncSoon(through: ticket)
        }
    }

    // MARK: - Changing

    /// Changes a download in one transaction: reads it, lets `change` edit it, and writes it back.
    ///
    /// The row's id, app, identifiers, and creation time cannot change; `updatedAt` becomes `now`.
    /// - Parameters:
    ///   - id: The row id.
    ///   - now: The time of the change.
    ///   - waitsForDisk: `false` for a change a power cut may take back without harm, because the
    ///     next boot redoes it (a download's progress and end); see ``withDatabase(waitsForDisk:_:)``.
    ///   - change: Edits the row; throwing rolls the transaction back and leaves the row as it was.
    /// - Returns: The row as stored.
    /// - Throws: ``DaemonError/downloadNotFound(key:)``, what `change` throws, or a SQLite error.
    @discardableResult
    public func update(
        id: Int64, at now: Date, waitsForDisk: Bool = true, _ change: (inout DownloadRow) throws -> Void
    ) throws -> DownloadRow {
        // The lock keeps every other use of the connection out between the read and the write, and
        // one transaction holds both: as two, each took and gave back SQLite's file locks of its own.
        try withDatabase(waitsForDisk: waitsForDisk) { database in
            try database.transaction { try Self.change(id: id, in: database, at: now, change) }
        }
    }

    /// Changes several downloads in one transaction, each on its own: one commit for what the queue
    /// does to many downloads at once (the starts of one look at the queue, the ends of transfers
    /// that finished together), where a commit each cost most of the work.
    ///
    /// A download that is gone, or whose `change` throws, is left as it was and its error returned
    /// in its place; the others are changed.
    /// - Parameters:
    ///   - ids: The row ids.
    ///   - now: The time of the changes.
    ///   - waitsForDisk: As for ``update(id:at:waitsForDisk:_:)``.
    ///   - change: Edits a row, given its index in `ids`; throwing leaves that row as it was.
    /// - Returns: Each row as stored, or why it was not changed, in the order of `ids`.
    /// - Throws: A SQLite error that ended the transaction; then nothing is changed.
    public func updateEach(
        _ ids: [Int64], at now: Date, waitsForDisk: Bool = true, _ change: (_ index: Int, inout DownloadRow) throws -> Void
    ) throws -> [Result<DownloadRow, any Error>] {
        guard !ids.isEmpty else { return [] }
        return try withDatabase(waitsForDisk: waitsForDisk) { database in
            try database.transaction {
                ids.enumerated().map { index, id in
                    Result { try Self.change(id: id, in: database, at: now) { try change(index, &$0) } }
                }
            }
        }
    }

    /// Reads a row, lets `change` edit it, and writes back the columns that changed; the caller
    /// holds the transaction. A `change` that throws writes nothing.
    private static func change(
        id: Int64, in database: SQLiteDatabase, at now: Date, _ change: (inout DownloadRow) throws -> Void
    ) throws -> DownloadRow {
        guard let stored = try fetchRow(id: id, in: database) else {
            throw DaemonError.downloadNotFound(key: "row \(id)")
        }
        var row = stored
        try change(&row)
        row.updatedAt = now
        // The caller gets the times as the store keeps them, to the millisecond, without reading the row back.
        row.roundTimesToStoredPrecision()
        let before = updateValues(stored)
        let after = updateValues(row)
        let changed = after.indices.filter { before[$0] != after[$0] }
        guard !changed.isEmpty else { return row }
        try database.prepare(updateSQL(columns: changed)).bind(changed.map { after[$0] } + [.integer(id)]).run()
        return row
    }

    /// What lets a later request resume a download: the response's entity tag or Last-Modified date.
    public struct Validator: Sendable, Equatable {
        /// The strong entity tag, quotes included.
        public var entityTag: String?
        /// The Last-Modified date, as the server sent it.
        public var lastModified: String?

        public init(entityTag: String?, lastModified: String?) {
            self.entityTag = entityTag
            self.lastModified = lastModified
        }
    }

    /// Records a progress checkpoint: bytes that are synced to the staging file.
    ///
    /// The hot path of a transfer, so it writes a few columns rather than the whole row, in one
    /// commit with what changed along with the bytes: the boot writing the staging file, and a new
    /// validator. Only a length past the download's high-water mark counts as progress
    /// (`last_progress_at`): bytes fetched again after a restart from zero do not keep a failing
    /// download alive.
    ///
    /// The commit does not wait for the disk. A crash of the service keeps it (the kernel has it);
    /// a power cut may lose it, and then the next boot resumes from an earlier checkpoint, or from
    /// zero, with the file cut back to match: never bytes of one version under another's validator.
    /// - Parameters:
    ///   - id: The row id.
    ///   - bytesDurable: The synced length of the staging file.
    ///   - boot: The boot writing the staging file, or `nil` to leave the recorded one.
    ///   - validator: The validator the bytes belong to when it changed, or `nil` to leave it.
    ///   - now: The time of the checkpoint.
    /// - Throws: ``DaemonError/downloadNotFound(key:)`` or a SQLite error.
    public func recordCheckpoint(
        id: Int64, bytesDurable: Int64, boot: String? = nil, validator: Validator? = nil, at now: Date
    ) throws {
        try withDatabase(waitsForDisk: false) { database in
            var values: [SQLiteValue?] = [
                .integer(bytesDurable), .integer(Self.milliseconds(now)), .integer(id), boot.map { .text($0) },
            ]
            var validatorColumns = ""
            if let validator {
                validatorColumns = ", etag = ?5, last_modified = ?6"
                values += [validator.entityTag.map { .text($0) }, validator.lastModified.map { .text($0) }]
            }
            try database.prepare("""
                UPDATE downloads SET bytes_durable = ?1, updated_at = ?2,
                    last_progress_at = CASE WHEN ?1 > high_water THEN ?2 ELSE last_progress_at END,
                    high_water = MAX(high_water, ?1), written_boot = COALESCE(?4, written_boot)\(validatorColumns)
                WHERE id = ?3
                """
            ).bind(values).run()
            guard database.changedRowCount == 1 else { throw DaemonError.downloadNotFound(key: "row \(id)") }
        }
    }

    /// The boot that last wrote a download's staging file, if any did.
    /// - Throws: A SQLite error.
    public func writtenBoot(id: Int64) throws -> String? {
        try withDatabase { database in
            try database.prepare("SELECT written_boot FROM downloads WHERE id = ?").bind([.integer(id)])
                .rows { $0.optionalText(0) }.first ?? nil
        }
    }

    /// Deletes a download's row.
    /// - Parameter id: The row id.
    /// - Returns: Whether a row was deleted.
    @discardableResult
    public func delete(id: Int64) throws -> Bool {
        try withDatabase { database in
            try database.prepare("DELETE FROM downloads WHERE id = ?").bind([.integer(id)]).run()
            return database.changedRowCount == 1
        }
    }

    /// Deletes ended downloads last changed before a date, keeping recent history for status.
    /// - Parameter date: Ended rows older than this are deleted.
    /// - Returns: The number of rows deleted.
    @discardableResult
    public func deleteEndedDownloads(before date: Date) throws -> Int {
        try withDatabase { database in
            try database.prepare("DELETE FROM downloads WHERE state IN (-1, 3) AND updated_at < ?")
                .bind([.integer(Self.milliseconds(date))]).run()
            return database.changedRowCount
        }
    }
}
