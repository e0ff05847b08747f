/*
Abstract:
Opens a subsystem's SQLite file the way every store of the service does: WAL, full sync, its tables made if missing.
*/

import Foundation

extension SQLiteDatabase {
    /// Opens or creates a store's database with write-ahead logging and full synchronisation, so a
    /// row written before a crash of the service is there after it, and creates its tables.
    /// - Parameters:
    ///   - url: The database file.
    ///   - schema: The `CREATE TABLE IF NOT EXISTS` statements of its tables.
    /// - Throws: ``DaemonError`` when the file cannot be opened or a statement fails.
    static func openDurable(at url: URL, schema: [String]) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: url.path)
        try database.execute("PRAGMA journal_mode = WAL")
        try database.execute("PRAGMA synchronous = FULL")
        for statement in schema { try database.execute(statement) }
        return database
    }
}
