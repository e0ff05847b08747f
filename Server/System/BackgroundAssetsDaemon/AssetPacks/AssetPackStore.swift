/*
Abstract:
The installed asset packs of every app, kept in their own SQLite file so they survive restarts of the service.
*/

import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

/// Records which pack versions are installed for which app, one row per app and pack.
///
/// The packs' files are the truth of what readers see (each pack's `current` link); this store keeps
/// what the files cannot say: the policy a pack was installed under, its size, and when the app last
/// used it, which storage pressure needs. An actor of its own, as ``TaskStore`` is.
public actor AssetPackStore: OwnThreadActor {
    /// The store's own thread: SQLite blocks, and must not hold a thread of the shared pool.
    public nonisolated let thread = ActorThread(name: "asset-packs")

    let database: SQLiteDatabase
    /// The database file.
    public nonisolated let path: String

    /// Opens or creates the store.
    /// - Parameter url: The database file, for example `system/asset-packs.sqlite` under the device root.
    /// - Throws: ``DaemonError`` when the file cannot be opened or created.
    public init(url: URL) throws {
        path = url.path
        database = try SQLiteDatabase.openStore(path: url.path, migrations: Self.migrations)
    }

    /// The store's schema, one script per version, append-only (see ``SQLiteDatabase/openStore(path:migrations:)``).
    static let migrations = [
        // Version 1: the installed packs.
        """
        CREATE TABLE IF NOT EXISTS installed_packs (
            app TEXT NOT NULL,
            pack_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            policy TEXT NOT NULL,
            install_size INTEGER NOT NULL,
            size_on_disk INTEGER NOT NULL,
            installed REAL NOT NULL,
            last_used REAL NOT NULL,
            PRIMARY KEY (app, pack_id)
        );
        """,
        // Version 2: the pack versions on their way (their manifest entry, which verifies the
        // archive, and their queue row), so a restarted service installs what its queue finishes;
        // and whether each app's extension adopts the managed protocol.
        """
        CREATE TABLE pack_downloads (
            app TEXT NOT NULL,
            pack_id TEXT NOT NULL,
            entry TEXT NOT NULL,
            archive_url TEXT NOT NULL,
            essential INTEGER NOT NULL,
            row_id INTEGER,
            PRIMARY KEY (app, pack_id)
        );
        CREATE TABLE extension_adoption (
            app TEXT PRIMARY KEY,
            managed INTEGER NOT NULL,
            type_name TEXT
        );
        """,
        // Version 3: whether a pack version on its way was started before the extension's
        // shouldDownload(_:) answer and still awaits it.
        """
        ALTER TABLE pack_downloads ADD COLUMN awaiting_answer INTEGER NOT NULL DEFAULT 0;
        """,
    ]

    /// Records an installed version, replacing the app's record of that pack.
    public func save(_ pack: InstalledAssetPack) throws {
        try database.prepare(
            """
            INSERT OR REPLACE INTO installed_packs
                (app, pack_id, version, policy, install_size, size_on_disk, installed, last_used)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).bind([
            .text(pack.bundleIdentifier), .text(pack.packID), .int(pack.version),
            .text(String(decoding: pack.downloadPolicy.jsonValue.encoded(pretty: false), as: UTF8.self)),
            .integer(pack.installSize), .integer(pack.sizeOnDisk),
            .real(pack.installed.timeIntervalSince1970), .real(pack.lastUsed.timeIntervalSince1970),
        ]).run()
    }

    /// Records that the app used a pack (asked for it, or read it), for storage pressure's order.
    public func markUsed(app: String, packID: String, at date: Date) throws {
        try database.prepare("UPDATE installed_packs SET last_used = ? WHERE app = ? AND pack_id = ?")
            .bind([.real(date.timeIntervalSince1970), .text(app), .text(packID)]).run()
    }

    /// Forgets a pack of an app, or all of the app's when `packID` is `nil`.
    /// - Returns: How many records were removed.
    @discardableResult
    public func remove(app: String, packID: String?) throws -> Int {
        let condition = packID == nil ? "app = ?" : "app = ? AND pack_id = ?"
        let values: [SQLiteValue?] = [.text(app)] + (packID.map { [.text($0)] } ?? [])
        return try database.transaction {
            let count = try database.prepare("SELECT COUNT(*) FROM installed_packs WHERE \(condition)").bind(values)
                .rows { $0.int(0) }.first ?? 0
            try database.prepare("DELETE FROM installed_packs WHERE \(condition)").bind(values).run()
            return count
        }
    }

    /// Forgets everything about an app: its packs, the versions on their way, its extension's adoption.
    public func removeApp(_ app: String) throws {
        try database.transaction {
            for table in ["installed_packs", "pack_downloads", "extension_adoption"] {
                try database.prepare("DELETE FROM \(table) WHERE app = ?").bind([.text(app)]).run()
            }
        }
    }

    /// The installed packs of one app, or of every app, ordered by app and pack.
    public func packs(of app: String? = nil) throws -> [InstalledAssetPack] {
        let condition = app == nil ? "" : "WHERE app = ?"
        return try database.prepare(
            """
            SELECT app, pack_id, version, policy, install_size, size_on_disk, installed, last_used
            FROM installed_packs \(condition) ORDER BY app, pack_id
            """
        ).bind(app.map { [.text($0)] } ?? []).rows { row in
            InstalledAssetPack(
                bundleIdentifier: row.text(0), packID: row.text(1), version: row.int(2),
                downloadPolicy: Self.policy(row.text(3)), installSize: row.int64(4), sizeOnDisk: row.int64(5),
                installed: Date(timeIntervalSince1970: row.double(6)), lastUsed: Date(timeIntervalSince1970: row.double(7)))
        }
    }

    /// A stored policy; the store only ever writes valid ones, and an unreadable row counts as on
    /// demand, the policy storage pressure may remove first.
    private static func policy(_ text: String) -> AssetPackDownloadPolicy {
        guard let value = try? JSONValue(parsing: Data(text.utf8), source: "installed_packs.policy"),
              let reader = try? JSONFieldReader(root: value, source: "installed_packs.policy"),
              let policy = try? AssetPackDownloadPolicy(reading: reader) else { return .onDemand }
        return policy
    }
}
