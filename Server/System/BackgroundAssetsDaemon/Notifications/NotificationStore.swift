/*
Abstract:
Each app's notification authorization, pending requests and delivered notifications, kept in their own SQLite file.
*/

import BackgroundAssetsIPC
import Foundation

/// Records what the person answered each app, the requests it left to be delivered later, and the
/// notifications delivered to it.
///
/// An actor of its own, as ``TaskStore`` is; `backgroundassets-debug notifications` reads it. Pending
/// requests are written before the app hears they were added, so a service killed with SIGKILL, or
/// one that stops, delivers them after its next start.
public actor NotificationStore: OwnThreadActor {
    /// The store's own thread: SQLite blocks, and must not hold a thread of the shared pool.
    public nonisolated let thread = ActorThread(name: "notifications")

    let database: SQLiteDatabase
    /// The database file.
    public nonisolated let path: String

    /// Opens or creates the store.
    /// - Parameter url: The database file, for example `system/notifications.sqlite` under the device root.
    /// - Throws: ``DaemonError`` when the file cannot be opened or created.
    public init(url: URL) throws {
        path = url.path
        database = try SQLiteDatabase.openStore(path: url.path, migrations: Self.migrations)
    }

    /// The store's schema, one script per version, append-only (see ``SQLiteDatabase/openStore(path:migrations:)``).
    static let migrations = [
        // Version 1: each app's answer, and the notifications delivered to it.
        """
        CREATE TABLE IF NOT EXISTS authorizations (app TEXT PRIMARY KEY, status INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS delivered (app TEXT NOT NULL, identifier TEXT NOT NULL, delivered REAL NOT NULL, request TEXT NOT NULL);
        """,
        // Version 2: the requests not yet delivered, each with its due date; the row id keeps the
        // order they were added (a replaced or rescheduled one moves to the end, as in the state).
        """
        CREATE TABLE IF NOT EXISTS pending (app TEXT NOT NULL, identifier TEXT NOT NULL, due REAL NOT NULL, request TEXT NOT NULL,
            PRIMARY KEY (app, identifier));
        """,
        // Version 3: the number each app's icon shows.
        """
        CREATE TABLE IF NOT EXISTS badges (app TEXT PRIMARY KEY, count INTEGER NOT NULL);
        """,
        // Version 4: each app's notification categories, as JSON.
        """
        CREATE TABLE IF NOT EXISTS categories (app TEXT PRIMARY KEY, categories TEXT NOT NULL);
        """,
    ]

    /// The app's recorded answer, `.notDetermined` before it asked.
    public func authorization(of app: String) throws -> NotificationAuthorizationStatus {
        try database.prepare("SELECT status FROM authorizations WHERE app = ?").bind([.text(app)])
            .rows { NotificationAuthorizationStatus(rawValue: $0.int(0)) ?? .denied }.first ?? .notDetermined
    }

    /// Records the answer the app got.
    public func setAuthorization(_ status: NotificationAuthorizationStatus, of app: String) throws {
        try database.prepare("INSERT OR REPLACE INTO authorizations (app, status) VALUES (?, ?)")
            .bind([.text(app), .int(status.rawValue)]).run()
    }

    /// Records a delivered notification, dropping the app's oldest past ``NotificationPolicy/deliveredLimit``.
    public func record(_ delivery: DeliveredNotificationDescriptor, app: String) throws {
        let json = String(decoding: try JSONEncoder().encode(delivery.request), as: UTF8.self)
        try database.transaction {
            try database.prepare("INSERT INTO delivered (app, identifier, delivered, request) VALUES (?, ?, ?, ?)")
                .bind([.text(app), .text(delivery.request.identifier), .real(delivery.date.timeIntervalSince1970), .text(json)]).run()
            try database.prepare(
                """
                DELETE FROM delivered WHERE app = ? AND rowid NOT IN
                    (SELECT rowid FROM delivered WHERE app = ? ORDER BY rowid DESC LIMIT ?)
                """
            ).bind([.text(app), .text(app), .int(NotificationPolicy.deliveredLimit)]).run()
        }
    }

    /// The delivered notifications of one app or of all, oldest first, each with its app and its
    /// place in the list; with `after`, only those placed after it (`notifications --follow`).
    public func delivered(app: String? = nil, after sequence: Int64? = nil) throws -> [DeliveredNotificationRecord] {
        var conditions: [String] = []
        var values: [SQLiteValue?] = []
        if let app {
            conditions.append("app = ?")
            values.append(.text(app))
        }
        if let sequence {
            conditions.append("rowid > ?")
            values.append(.integer(sequence))
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try database.prepare("SELECT rowid, app, delivered, request FROM delivered \(filter) ORDER BY rowid")
            .bind(values).rows { row in
                (row.int64(0), row.text(1), Date(timeIntervalSince1970: row.double(2)), row.text(3))
            }.compactMap { sequence, app, date, json in
                guard let request = try? JSONDecoder().decode(NotificationRequestDescriptor.self, from: Data(json.utf8)) else {
                    return nil
                }
                return DeliveredNotificationRecord(bundleIdentifier: app, sequence: sequence,
                                                   notification: DeliveredNotificationDescriptor(request: request, date: date))
            }
    }

    /// Every app's pending requests, in the order they were added; a row that no longer decodes is skipped.
    public func pending() throws -> [PendingNotification] {
        try database.prepare("SELECT app, due, request FROM pending ORDER BY rowid").rows { row in
            (row.text(0), Date(timeIntervalSince1970: row.double(1)), row.text(2))
        }.compactMap { app, due, json in
            guard let request = try? JSONDecoder().decode(NotificationRequestDescriptor.self, from: Data(json.utf8)) else { return nil }
            return PendingNotification(app: app, request: request, due: due)
        }
    }

    /// Changes an app's pending requests at once: `forgotten` go first, then each of `kept` is written
    /// (added, or replacing the one with its identifier, which moves it to the end of the order).
    public func updatePending(app: String, kept: [PendingNotification], forgotten: [String]) throws {
        try database.transaction {
            for identifier in forgotten {
                try database.prepare("DELETE FROM pending WHERE app = ? AND identifier = ?").bind([.text(app), .text(identifier)]).run()
            }
            for item in kept {
                let json = String(decoding: try JSONEncoder().encode(item.request), as: UTF8.self)
                try database.prepare("DELETE FROM pending WHERE app = ? AND identifier = ?")
                    .bind([.text(app), .text(item.request.identifier)]).run()
                try database.prepare("INSERT INTO pending (app, identifier, due, request) VALUES (?, ?, ?, ?)")
                    .bind([.text(app), .text(item.request.identifier), .real(item.due.timeIntervalSince1970), .text(json)]).run()
            }
        }
    }

    /// Forgets an uninstalled app: its answer, its pending requests, its delivered notifications, its badge and categories.
    public func removeApp(_ app: String) throws {
        try database.transaction {
            try database.prepare("DELETE FROM badges WHERE app = ?").bind([.text(app)]).run()
            try database.prepare("DELETE FROM categories WHERE app = ?").bind([.text(app)]).run()
            try database.prepare("DELETE FROM pending WHERE app = ?").bind([.text(app)]).run()
            try database.prepare("DELETE FROM delivered WHERE app = ?").bind([.text(app)]).run()
            try database.prepare("DELETE FROM authorizations WHERE app = ?").bind([.text(app)]).run()
        }
    }

    /// Removes an app's delivered notifications, all of them when `identifiers` is `nil`.
    public func removeDelivered(app: String, identifiers: [String]?) throws {
        guard let identifiers else {
            return try database.prepare("DELETE FROM delivered WHERE app = ?").bind([.text(app)]).run()
        }
        for identifier in identifiers {
            try database.prepare("DELETE FROM delivered WHERE app = ? AND identifier = ?").bind([.text(app), .text(identifier)]).run()
        }
    }
}
