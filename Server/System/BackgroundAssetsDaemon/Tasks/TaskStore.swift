/*
Abstract:
The pending Background Tasks requests, kept in their own SQLite file so they survive restarts of the service.
*/

import BackgroundAssetsIPC
import Foundation

/// Stores pending task requests durably, one row per app and identifier.
///
/// An actor of its own, on a thread of its own: each call is a short SQLite statement that blocks,
/// and the service that serves clients awaits it instead of running it on its own executor or on a
/// thread of the shared pool.
public actor TaskStore: OwnThreadActor {
    /// The store's own thread: SQLite blocks, and must not hold a thread of the shared pool.
    public nonisolated let thread = ActorThread(name: "task-store")

    private let database: SQLiteDatabase
    /// The database file.
    public nonisolated let path: String
    /// Told after each change to the pending requests, which the task runner reads.
    private let requestsChanged: @Sendable () -> Void

    /// Opens or creates the store.
    /// - Parameters:
    ///   - url: The database file, ``DevicePaths/taskDatabase``.
    ///   - requestsChanged: Told after each request is stored or removed; the service's, so the task
    ///     runner follows every writer of the store and no writer has to remember to wake it.
    /// - Throws: ``DaemonError`` when the file cannot be opened or created.
    public init(url: URL, requestsChanged: @escaping @Sendable () -> Void = {}) throws {
        path = url.path
        self.requestsChanged = requestsChanged
        database = try SQLiteDatabase.openStore(path: url.path, migrations: Self.migrations)
    }

    /// The store's schema, one script per version, append-only (see ``SQLiteDatabase/openStore(path:migrations:)``).
    static let migrations = [
        // Version 1: pending requests, and when each app's refresh task last ran. `IF NOT EXISTS`,
        // because stores made before the schema was versioned have these tables at version 0.
        """
        CREATE TABLE IF NOT EXISTS pending_tasks (
            app TEXT NOT NULL,
            identifier TEXT NOT NULL,
            kind TEXT NOT NULL,
            earliest_begin REAL,
            requires_network INTEGER NOT NULL,
            requires_power INTEGER NOT NULL,
            submitted REAL NOT NULL,
            PRIMARY KEY (app, identifier)
        );
        CREATE TABLE IF NOT EXISTS refresh_runs (app TEXT PRIMARY KEY, last_run REAL NOT NULL);
        """,
        // Version 2: when each identifier of each app last ran, which spaces out its next run.
        """
        CREATE TABLE task_runs (
            app TEXT NOT NULL,
            identifier TEXT NOT NULL,
            last_run REAL NOT NULL,
            PRIMARY KEY (app, identifier)
        );
        """,
    ]

    /// Records that an app's refresh task ran, which spaces out the next one.
    public func recordRefresh(app: String, at date: Date) throws {
        try database.prepare("INSERT OR REPLACE INTO refresh_runs (app, last_run) VALUES (?, ?)")
            .bind([.text(app), .real(date.timeIntervalSince1970)]).run()
    }

    /// Records that a task with this identifier ran for the app, which spaces out its next run.
    public func recordRun(app: String, identifier: String, at date: Date) throws {
        try database.prepare("INSERT OR REPLACE INTO task_runs (app, identifier, last_run) VALUES (?, ?, ?)")
            .bind([.text(app), .text(identifier), .real(date.timeIntervalSince1970)]).run()
    }

    /// When a task with this identifier last ran for the app, if one has.
    public func lastRun(app: String, identifier: String) throws -> Date? {
        try database.prepare("SELECT last_run FROM task_runs WHERE app = ? AND identifier = ?")
            .bind([.text(app), .text(identifier)])
            .rows { Date(timeIntervalSince1970: $0.double(0)) }.first
    }

    /// Moves every recorded date (last runs, last refreshes, earliest begin dates, submissions) by the same
    /// amount, when the device's clock is put back.
    /// - Parameter seconds: How far to move them; negative moves them back.
    public func moveDeviceDates(by seconds: TimeInterval) throws {
        try database.prepare("UPDATE refresh_runs SET last_run = last_run + ?").bind([.real(seconds)]).run()
        try database.prepare("UPDATE task_runs SET last_run = last_run + ?").bind([.real(seconds)]).run()
        try database.prepare(
            "UPDATE pending_tasks SET earliest_begin = earliest_begin + ?, submitted = submitted + ?"
        ).bind([.real(seconds), .real(seconds)]).run()
    }

    /// When the app's last refresh task ran, if one has.
    public func lastRefresh(app: String) throws -> Date? {
        try database.prepare("SELECT last_run FROM refresh_runs WHERE app = ?").bind([.text(app)])
            .rows { Date(timeIntervalSince1970: $0.double(0)) }.first
    }

    /// Stores a request, replacing the app's pending one with the same identifier.
    public func save(_ task: PendingTask) throws {
        try database.prepare(
            """
            INSERT OR REPLACE INTO pending_tasks
                (app, identifier, kind, earliest_begin, requires_network, requires_power, submitted)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """
        ).bind([
            .text(task.bundleIdentifier), .text(task.request.identifier), .text(task.request.kind.rawValue),
            task.request.earliestBeginDate.map { .real($0.timeIntervalSince1970) },
            .bool(task.request.requiresNetworkConnectivity), .bool(task.request.requiresExternalPower),
            .real(task.submitted.timeIntervalSince1970),
        ]).run()
        requestsChanged()
    }

    /// Removes the app's request with this identifier, or all of the app's when `nil`.
    /// - Returns: How many requests were removed.
    @discardableResult
    public func remove(app: String, identifier: String?) throws -> Int {
        let condition = identifier == nil ? "app = ?" : "app = ? AND identifier = ?"
        let values: [SQLiteValue?] = [.text(app)] + (identifier.map { [.text($0)] } ?? [])
        let count = try database.transaction {
            let count = try database.prepare("SELECT COUNT(*) FROM pending_tasks WHERE \(condition)").bind(values)
                .rows { $0.int(0) }.first ?? 0
            try database.prepare("DELETE FROM pending_tasks WHERE \(condition)").bind(values).run()
            return count
        }
        if count > 0 { requestsChanged() }
        return count
    }

    /// Every pending request, oldest submission first.
    public func all() throws -> [PendingTask] {
        try database.prepare(
            """
            SELECT app, identifier, kind, earliest_begin, requires_network, requires_power, submitted
            FROM pending_tasks ORDER BY submitted, app, identifier
            """
        ).rows { row in
            PendingTask(
                bundleIdentifier: row.text(0),
                request: TaskRequestDescriptor(
                    identifier: row.text(1), kind: TaskRequestDescriptor.Kind(rawValue: row.text(2)) ?? .appRefresh,
                    earliestBeginDate: row.isNull(3) ? nil : Date(timeIntervalSince1970: row.double(3)),
                    requiresNetworkConnectivity: row.bool(4), requiresExternalPower: row.bool(5)),
                submitted: Date(timeIntervalSince1970: row.double(6)))
        }
    }
}
