/*
Abstract:
How every store of the service opens its SQLite file: WAL, synced commits, and versioned migrations.
*/

import Foundation

extension SQLiteDatabase {
    /// Opens a store's file the one way every store of the service does: in WAL mode (readers never
    /// block the writer), with each commit synced, and its schema brought up to date by `migrations`.
    /// - Parameters:
    ///   - path: The database file; created when missing.
    ///   - migrations: One script per schema version: `migrations[n]` moves a store from version n
    ///     to n + 1. Scripts are append-only: a released script is never edited, a change is a new one.
    /// - Returns: The open connection.
    /// - Throws: ``DaemonError`` when the file cannot be opened, its file system has no WAL, or its
    ///   schema is newer than `migrations` know.
    static func openStore(path: String, migrations: [String]) throws -> SQLiteDatabase {
        let connection = try SQLiteDatabase(path: path)
        let mode = try connection.prepare("PRAGMA journal_mode = WAL").rows { $0.text(0) }.first
        guard mode?.lowercased() == "wal" else {
            let message = "the file system does not support WAL (journal mode \(mode ?? "none"))"
            throw DaemonError.cannotOpen(path: path, message: message)
        }
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.execute("PRAGMA foreign_keys = ON")
        try connection.migrate(migrations)
        return connection
    }

    /// Brings the schema up to the last of `migrations`, every migration missing in one transaction.
    ///
    /// One commit, so one wait for the disk, however many versions a store moves through: a store
    /// created on the spot (the asset-pack store, by a device's first managed app) waited for one
    /// commit per version before its first record.
    /// - Throws: ``DaemonError/schemaTooNew(found:supported:path:)`` or a SQLite error; a failed
    ///   migration leaves the store at the version it had.
    func migrate(_ migrations: [String]) throws {
        let found = try userVersion()
        guard found <= migrations.count else {
            throw DaemonError.schemaTooNew(found: found, supported: migrations.count, path: path)
        }
        guard found < migrations.count else { return }
        try transaction {
            for version in found..<migrations.count { try execute(migrations[version]) }
            // user_version lives in the database header, so it commits or rolls back with the scripts.
            try execute("PRAGMA user_version = \(migrations.count)")
        }
    }

    /// The schema version recorded in the file.
    func userVersion() throws -> Int {
        try prepare("PRAGMA user_version").rows { $0.int(0) }.first ?? 0
    }
}
