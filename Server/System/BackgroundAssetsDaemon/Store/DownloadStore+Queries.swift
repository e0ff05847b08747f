/*
Abstract:
Reading the queue: single downloads, an app's current downloads, and the next downloads to run.
*/

import BackgroundAssetsIPC
import Foundation

extension DownloadStore {
    /// The order downloads run in: essential first, then foreground, then priority, then age.
    static let runOrder = "essential DESC, foreground DESC, priority DESC, created_at, id"

    /// The download with a row id.
    /// - Parameter id: The row id.
    /// - Returns: The row, or `nil`.
    public func download(id: Int64) throws -> DownloadRow? {
        try withReader { try Self.fetchRow(id: id, in: $0) }
    }

    /// The most recent download with a unique identifier, ended or not.
    /// - Parameter uniqueIdentifier: The download object's unique identifier.
    /// - Returns: The row, or `nil`.
    public func download(uniqueIdentifier: String) throws -> DownloadRow? {
        try withReader { try Self.lastDownload(uniqueIdentifier: uniqueIdentifier, in: $0) }
    }

    /// The app's download with an identifier that has not ended.
    /// - Parameters:
    ///   - bundleIdentifier: The app.
    ///   - identifier: The download's app-specific identifier.
    /// - Returns: The row, or `nil`.
    public func activeDownload(bundleIdentifier: String, identifier: String) throws -> DownloadRow? {
        try withReader { try Self.activeDownload(bundleIdentifier: bundleIdentifier, identifier: identifier, in: $0) }
    }

    /// Which of `identifiers` name a download of the app that has not ended: what scheduling an
    /// extension's answer of thousands of downloads asks. Only the identifiers are read, one
    /// statement for every ``identifierBatch`` of them, each answered from the index of active
    /// identifiers: the cost follows the identifiers asked about, not the rows of the queue.
    /// - Parameters:
    ///   - bundleIdentifier: The app.
    ///   - identifiers: The downloads' app-specific identifiers.
    /// - Returns: Those of them on their way.
    public func activeIdentifiers(bundleIdentifier: String, among identifiers: [String]) throws -> Set<String> {
        try withReader { database in
            var active = Set<String>()
            for start in stride(from: 0, to: identifiers.count, by: Self.identifierBatch) {
                let batch = identifiers[start..<min(start + Self.identifierBatch, identifiers.count)]
                // A short batch is padded with NULL, which matches nothing, so the statement cache
                // holds one statement rather than one for each length a last batch can have.
                let values: [SQLiteValue?] = [.text(bundleIdentifier)] + batch.map { .text($0) }
                    + Array(repeating: nil, count: Self.identifierBatch - batch.count)
                for identifier in try database.prepare(Self.activeIdentifiersQuery).bind(values).rows({ $0.text(0) }) {
                    active.insert(identifier)
                }
            }
            return active
        }
    }

    /// How many identifiers ``activeIdentifiers(bundleIdentifier:among:)`` asks about in one statement.
    static let identifierBatch = 250

    private static let activeIdentifiersQuery = "SELECT identifier FROM downloads "
        + "WHERE app_bundle_id = ? AND state BETWEEN 0 AND 2 AND \(notAssetPack) "
        + "AND identifier IN (\(Array(repeating: "?", count: identifierBatch).joined(separator: ", ")))"

    /// What a foreground start asks before it queues anything: the app's download with the
    /// identifier that has not ended, or else the most recent download with the unique identifier.
    ///
    /// Read on the lookups' connection, on the caller's thread: the app starts its sessions one at
    /// a time, each waiting for the answer, and a hop to the reader's thread and back was a sixth of
    /// each start's round trip on a busy machine; the lookups themselves take microseconds.
    func foregroundStartRows(
        bundleIdentifier: String, identifier: String, uniqueIdentifier: String
    ) throws -> (active: DownloadRow?, ended: DownloadRow?) {
        try withLookupConnection { database in
            if let row = try Self.activeDownload(bundleIdentifier: bundleIdentifier, identifier: identifier, in: database) {
                return (row, nil)
            }
            return (nil, try Self.lastDownload(uniqueIdentifier: uniqueIdentifier, in: database))
        }
    }

    private static func lastDownload(uniqueIdentifier: String, in database: SQLiteDatabase) throws -> DownloadRow? {
        try database.prepare("SELECT \(columns) FROM downloads WHERE unique_id = ? ORDER BY id DESC LIMIT 1")
            .bind([.text(uniqueIdentifier)]).rows(readRow).first
    }

    private static func activeDownload(bundleIdentifier: String, identifier: String, in database: SQLiteDatabase) throws -> DownloadRow? {
        try database.prepare(
            "SELECT \(columns) FROM downloads "
                + "WHERE app_bundle_id = ? AND identifier = ? AND state BETWEEN 0 AND 2 AND \(notAssetPack)"
        ).bind([.text(bundleIdentifier), .text(identifier)]).rows(readRow).first
    }

    /// The app's downloads that have not ended, in run order: what `fetchCurrentDownloads` returns.
    /// - Parameters:
    ///   - bundleIdentifier: The app.
    ///   - includingAssetPacks: Whether the archives of managed asset packs count, which the system
    ///     downloads for the app and the app never sees.
    /// - Returns: The rows.
    public func currentDownloads(bundleIdentifier: String, includingAssetPacks: Bool = false) throws -> [DownloadRow] {
        try withReader { database in
            // Named: the index of the app's every row would walk the ended ones too, thousands
            // after a large install, where this one holds only the downloads that have not ended.
            try database.prepare(
                "SELECT \(Self.columns) FROM downloads INDEXED BY downloads_active_identifier "
                    + "WHERE app_bundle_id = ? AND state BETWEEN 0 AND 2 "
                    + (includingAssetPacks ? "" : "AND \(Self.notAssetPack) ") + "ORDER BY \(Self.runOrder)"
            ).bind([.text(bundleIdentifier)]).rows(Self.readRow)
        }
    }

    /// The condition that leaves out the archives of managed asset packs.
    static let notAssetPack = "kind != '\(DownloadDescriptor.Kind.assetPack.rawValue)'"

    /// Every download in the queue, ended or not, oldest first: what `backgroundassets-debug status` shows.
    /// - Returns: The rows.
    public func allDownloads() throws -> [DownloadRow] {
        try withReader { database in
            try database.prepare("SELECT \(Self.columns) FROM downloads ORDER BY id").rows(Self.readRow)
        }
    }

    /// The downloads that were transferring when the service stopped, oldest first.
    /// - Returns: The rows still marked as downloading.
    public func interruptedDownloads() throws -> [DownloadRow] {
        try withDatabase { database in
            try database.prepare("SELECT \(Self.columns) FROM downloads WHERE state = 2 ORDER BY id").rows(Self.readRow)
        }
    }

    /// A waiting download whose next attempt is due: what the queue needs to decide whether to start it.
    public struct DueDownload: Sendable, Equatable {
        /// The row id.
        public let id: Int64
        /// Whether it runs in the foreground, which starts it whatever the number of free slots.
        public let isForeground: Bool
        /// Whether it is essential: an install waits for it.
        public let isEssential: Bool
        /// Its URL, whose origin may be waited for (``ConnectivityWaits``).
        public let url: String
        /// Its declared size in bytes, 0 when it declared none: a small one has slots of its own (``TransferSlots``).
        public let declaredSize: Int
    }

    /// The waiting downloads whose next attempt is due, in run order.
    ///
    /// Essential downloads come first, then foreground ones, then higher priority, then the oldest.
    /// Only ids are read: the queue asks after every change and starts few of them, and reading
    /// whole rows (their text decoded into strings) cost more than the rest of its bookkeeping.
    /// - Parameters:
    ///   - limit: The most downloads to return, usually the free transfer slots.
    ///   - now: The current time; downloads backing off until later are skipped.
    ///   - heldApps: Apps in their essential phase, whose other background downloads must wait.
    /// - Returns: The downloads, at most `limit`.
    public func nextDownloadsToRun(limit: Int, at now: Date, holding heldApps: Set<String> = []) throws -> [DueDownload] {
        try withDatabase { database in
            let held = heldApps.sorted()
            let exclusion = Self.heldExclusion(count: held.count)
            let bindings: [SQLiteValue] = [.integer(Self.milliseconds(now))] + held.map { .text($0) } + [.int(limit)]
            // Named, so a query the planner could not answer from the index of unparked rows fails
            // loudly instead of walking every parked row.
            return try database.prepare(
                "SELECT id, foreground, essential, url, file_size FROM downloads INDEXED BY downloads_run_order_unparked "
                    + "WHERE state = 1 AND \(Self.unparked) AND next_attempt_at <= ?\(exclusion) "
                    + "ORDER BY \(Self.runOrder) LIMIT ?"
            ).bind(bindings).rows { row in
                DueDownload(
                    id: row.int64(0), isForeground: row.bool(1), isEssential: row.bool(2), url: row.text(3), declaredSize: row.int(4))
            }
        }
    }

    /// The number of downloads in each state.
    /// - Returns: A count for every state present in the queue.
    public func countsByState() throws -> [DownloadDescriptor.State: Int] {
        try withDatabase { database in
            let pairs = try database.prepare("SELECT state, count(*) FROM downloads GROUP BY state").rows {
                ($0.int(0), $0.int(1))
            }
            var counts: [DownloadDescriptor.State: Int] = [:]
            for (state, count) in pairs {
                if let state = DownloadDescriptor.State(rawValue: state) { counts[state] = count }
            }
            return counts
        }
    }

    static func fetchRow(id: Int64, in database: SQLiteDatabase) throws -> DownloadRow? {
        try database.prepare("SELECT \(columns) FROM downloads WHERE id = ?").bind([.integer(id)]).rows(readRow).first
    }
}
