/*
Abstract:
A thin wrapper over one SQLite connection: open, execute, prepare, and transactions.
*/

import BackgroundAssetsIPC
import CSQLite
import Foundation

/// One connection to an SQLite database file.
///
/// Not thread-safe by design: the connection is opened without SQLite's own mutex, and its owner
/// (``DownloadStore``) serialises every use behind one lock.
final class SQLiteDatabase {
    /// The connection handle; nil once closed.
    private(set) var handle: OpaquePointer?
    /// The database file's path, for error messages.
    let path: String
    /// Statements compiled once and reused, keyed by their SQL.
    private var statementCache: [String: SQLiteStatement] = [:]
    /// How many times ``syncWriteAheadLog()`` synced the log, for tests that bound the syncs per change.
    private(set) var writeAheadLogSyncs = 0
    /// How many transactions ``transaction(_:)`` committed, for tests that count commits per download.
    private(set) var commits = 0

    /// Opens (creating if needed) a database file.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - busyTimeout: How long a call waits for another connection's lock before failing.
    /// - Throws: ``DaemonError/cannotOpen(path:message:)``, or ``DaemonError/linkRefused(_:)`` when
    ///   the file is a symbolic link.
    init(path: String, busyTimeout: Duration = .seconds(5)) throws {
        self.path = path
        var connection: OpaquePointer?
        // NOFOLLOW: the service may run as root, and a link planted at a store must not have it
        // create or rewrite the file the link names. SQLite opens the WAL and shared memory with
        // O_NOFOLLOW of its own accord.
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let result = sqlite3_open_v2(path, &connection, flags, nil)
        guard result == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(connection)
            if let link = Self.linkAmongFiles(of: path) { throw DaemonError.linkRefused(link) }
            throw DaemonError.cannotOpen(path: path, message: message)
        }
        handle = connection
        sqlite3_extended_result_codes(connection, 1)
        let (seconds, attoseconds) = busyTimeout.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(connection, Int32(clamping: milliseconds))
    }

    /// The first of a database's files (itself, its write-ahead log, shared memory, rollback
    /// journal) that is a symbolic link, so a refused open names the link instead of SQLite's
    /// "unable to open database file".
    /// - Parameter path: The database file.
    static func linkAmongFiles(of path: String) -> LinkRefusingFile.Failure? {
        [path, path + "-wal", path + "-shm", path + "-journal"].lazy.compactMap(LinkRefusingFile.refusedLink(atPath:)).first
    }

    deinit { close() }

    /// Finalises every cached statement and closes the connection; later calls fail.
    func close() {
        statementCache.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs SQL that returns no rows (one or more statements separated by semicolons).
    /// - Parameter sql: The SQL to run.
    /// - Throws: ``DaemonError/sqlite(code:message:context:)``.
    func execute(_ sql: String) throws {
        let result = sqlite3_exec(try connection(), sql, nil, nil, nil)
        try check(result, "running \(sql.prefix(60))")
    }

    /// Returns the compiled statement for some SQL, reset and with its bindings cleared.
    /// - Parameter sql: One SQL statement with `?` parameters.
    /// - Returns: A statement ready to bind and step.
    /// - Throws: ``DaemonError/sqlite(code:message:context:)`` when the SQL does not compile.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        if let cached = statementCache[sql] {
            cached.reset()
            return cached
        }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(try connection(), sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        try check(result, "compiling \(sql.prefix(60))")
        let prepared = SQLiteStatement(statement: statement!, database: self)
        statementCache[sql] = prepared
        return prepared
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws.
    ///
    /// `IMMEDIATE` takes the write lock up front, so a transaction never fails half-way with
    /// `SQLITE_BUSY` when it upgrades from reading to writing.
    /// - Parameter body: The work to do atomically.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``DaemonError/sqlite(code:message:context:)``.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try runCompiled("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try runCompiled("COMMIT")
            commits += 1
            return result
        } catch {
            // A failed COMMIT may already have rolled back; a second rollback error adds nothing.
            try? runCompiled("ROLLBACK")
            throw error
        }
    }

    /// Runs one statement that returns no rows, compiled the first time only: for the statements
    /// every change runs (a transaction's BEGIN and COMMIT), which `execute(_:)` would compile each time.
    /// - Throws: ``DaemonError/sqlite(code:message:context:)``.
    func runCompiled(_ sql: String) throws {
        try prepare(sql).run()
    }

    /// Puts what the connection committed on disk: syncs the write-ahead log, as each commit does
    /// under `synchronous=FULL`, so a connection kept at `NORMAL` can make chosen changes durable.
    /// Nothing to do before the log exists (nothing committed).
    /// - Throws: ``DaemonError/sqlite(code:message:context:)`` when the sync fails.
    func syncWriteAheadLog() throws {
        var log: UnsafeMutablePointer<sqlite3_file>?
        let found = sqlite3_file_control(try connection(), "main", SQLITE_FCNTL_JOURNAL_POINTER, &log)
        guard found == SQLITE_OK, let log, let sync = log.pointee.pMethods?.pointee.xSync else { return }
        try check(sync(log, SQLITE_SYNC_NORMAL), "syncing the write-ahead log of \(path)")
        writeAheadLogSyncs += 1
    }

    /// `SQLITE_CONSTRAINT_UNIQUE`, an extended result code the C macro builds and Swift cannot import.
    static let constraintUnique: Int32 = SQLITE_CONSTRAINT | (8 << 8)

    /// The row id of the last row inserted on this connection.
    var lastInsertedRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    /// The number of rows the last statement changed.
    var changedRowCount: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    /// The rows inserted, updated or deleted through this connection since it opened.
    var totalChangedRowCount: Int { handle.map { Int(sqlite3_total_changes($0)) } ?? 0 }

    /// Throws the connection's error for a result code other than OK, ROW or DONE.
    func check(_ result: Int32, _ context: @autoclosure () -> String) throws {
        guard result != SQLITE_OK, result != SQLITE_ROW, result != SQLITE_DONE else { return }
        // A statement opens the write-ahead log and shared memory when it needs them, and SQLite
        // never opens them through a link: name a link there rather than "unable to open database file".
        if result & 0xff == SQLITE_CANTOPEN, let link = Self.linkAmongFiles(of: path) { throw DaemonError.linkRefused(link) }
        // A full disk reaches SQLite as SQLITE_FULL, or as an I/O error when it strikes the WAL's
        // shared memory or a truncate: name the full disk, not "disk I/O error".
        if result & 0xff == SQLITE_FULL || result & 0xff == SQLITE_IOERR, let free = Self.freeBytes(near: path), free < Self.nearlyFull {
            throw DaemonError.diskFull(path: path, freeBytes: free, context: context())
        }
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
        throw DaemonError.sqlite(code: result, message: message, context: context())
    }

    /// Free space below which an I/O error is put down to a full disk: less than SQLite needs for
    /// a few pages of its log.
    static let nearlyFull: Int64 = 256 << 10

    /// The bytes available to this process on the file system holding `path`'s folder.
    static func freeBytes(near path: String) -> Int64? {
        var info = statvfs()
        let folder = (path as NSString).deletingLastPathComponent
        guard statvfs(folder.isEmpty ? "." : folder, &info) == 0 else { return nil }
        let (bytes, overflow) = Int64(clamping: info.f_bavail).multipliedReportingOverflow(by: Int64(clamping: info.f_frsize))
        return overflow ? .max : bytes
    }

    private func connection() throws -> OpaquePointer {
        guard let handle else {
            throw DaemonError.sqlite(code: SQLITE_MISUSE, message: "the database is closed", context: "using \(path)")
        }
        return handle
    }
}
