/*
Abstract:
The background sessions of every app, kept in their own SQLite file so they survive the app's exit and restarts of the service.
*/

import BackgroundAssetsIPC
import Foundation

/// Stores each session's record (settings, outstanding tasks, waiting events), one row per app and session.
///
/// A record is written whole, as JSON, after each change the state returns: a session has few tasks,
/// and one row per session keeps a task and the events about it from ever disagreeing. An actor of its
/// own, as ``TaskStore`` is.
public actor BackgroundSessionStore: OwnThreadActor {
    /// The store's own thread: SQLite blocks, and must not hold a thread of the shared pool.
    public nonisolated let thread = ActorThread(name: "url-sessions")

    private let database: SQLiteDatabase
    /// The database file.
    public nonisolated let path: String

    /// Opens or creates the store.
    /// - Parameter url: The database file, for example `system/url-sessions.sqlite` under the device root.
    /// - Throws: ``DaemonError`` when the file cannot be opened or created.
    public init(url: URL) throws {
        path = url.path
        database = try SQLiteDatabase.openStore(path: url.path, migrations: Self.migrations)
    }

    /// The store's schema, one script per version, append-only (see ``SQLiteDatabase/openStore(path:migrations:)``).
    static let migrations = [
        // Version 1: one record per app and session.
        """
        CREATE TABLE IF NOT EXISTS url_sessions (app TEXT NOT NULL, session TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (app, session));
        """,
    ]

    /// Writes a session's record, or deletes it when `record` is `nil`.
    public func save(_ key: BackgroundSessionKey, _ record: BackgroundSessionRecord?) throws {
        guard let record else {
            try database.prepare("DELETE FROM url_sessions WHERE app = ? AND session = ?")
                .bind([.text(key.bundleIdentifier), .text(key.sessionIdentifier)]).run()
            return
        }
        let json = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        try database.prepare("INSERT OR REPLACE INTO url_sessions (app, session, record) VALUES (?, ?, ?)")
            .bind([.text(key.bundleIdentifier), .text(key.sessionIdentifier), .text(json)]).run()
    }

    /// Every stored session, ordered by app and session. A row that no longer decodes (written by a
    /// later version) is skipped and named in `unreadable`, so one bad row never loses the others.
    public func all() throws -> (records: [BackgroundSessionRecord], unreadable: [BackgroundSessionKey]) {
        var unreadable: [BackgroundSessionKey] = []
        let rows = try database.prepare("SELECT app, session, record FROM url_sessions ORDER BY app, session").rows {
            (BackgroundSessionKey(bundleIdentifier: $0.text(0), sessionIdentifier: $0.text(1)), $0.text(2))
        }
        let records = rows.compactMap { key, json -> BackgroundSessionRecord? in
            guard let record = try? JSONDecoder().decode(BackgroundSessionRecord.self, from: Data(json.utf8)) else {
                unreadable.append(key)
                return nil
            }
            return record
        }
        return (records, unreadable)
    }
}
