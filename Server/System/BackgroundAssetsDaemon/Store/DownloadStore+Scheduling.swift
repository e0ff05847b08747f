/*
Abstract:
The queries the download queue needs to run: recovering after a crash, and when to wake next.
*/

import Foundation

extension DownloadStore {
    /// Puts downloads that were transferring when the service stopped back in the waiting state.
    ///
    /// Their staging files keep the bytes up to their last checkpoint, so they resume from there.
    /// - Parameter now: The time of the recovery; the downloads are due at once.
    /// - Returns: How many downloads were put back.
    @discardableResult
    public func requeueInterruptedDownloads(at now: Date) throws -> Int {
        try withDatabase { database in
            let milliseconds = Self.milliseconds(now)
            try database.prepare("UPDATE downloads SET state = 1, next_attempt_at = ?, updated_at = ? WHERE state = 2")
                .bind([.integer(milliseconds), .integer(milliseconds)]).run()
            return database.changedRowCount
        }
    }

    /// Counts a crash of the service against the downloads that were transferring.
    /// - Parameter rowID: The download whose transfer thread crashed, if it is known and was
    ///   transferring; otherwise every download that was transferring is counted.
    /// - Returns: The counted downloads with their crash counts.
    public func recordCrash(blaming rowID: Int64?) throws -> [(row: DownloadRow, crashes: Int)] {
        try withDatabase { database in
            try database.transaction {
                var condition = "state = 2"
                var bindings: [SQLiteValue] = []
                if let rowID, try database.prepare("SELECT 1 FROM downloads WHERE id = ? AND state = 2")
                    .bind([.integer(rowID)]).rows({ _ in true }).first == true {
                    condition += " AND id = ?"
                    bindings = [.integer(rowID)]
                }
                try database.prepare("UPDATE downloads SET crashes = crashes + 1 WHERE \(condition)").bind(bindings).run()
                let counts = try database.prepare("SELECT id, crashes FROM downloads WHERE \(condition) ORDER BY id")
                    .bind(bindings).rows { ($0.int64(0), $0.int(1)) }
                return try counts.compactMap { id, crashes in
                    try Self.fetchRow(id: id, in: database).map { ($0, crashes) }
                }
            }
        }
    }

    /// The earliest time a waiting download is due, or `nil` when none is waiting.
    /// - Parameter heldApps: Apps in their essential phase, whose other background downloads are not
    ///   runnable however due they are, so they must not stand in for the next wake-up.
    public func earliestNextAttempt(holding heldApps: Set<String> = []) throws -> Date? {
        try withDatabase { database in
            let held = heldApps.sorted()
            // Named, because the planner would otherwise scan every waiting row through the run-order index.
            return try database.prepare(
                "SELECT MIN(next_attempt_at) FROM downloads INDEXED BY downloads_next_attempt WHERE state = 1"
                    + Self.heldExclusion(count: held.count)
            ).bind(held.map { .text($0) }).rows { row in row.optionalInt64(0).map(Self.date) }.first ?? nil
        }
    }

    /// The condition that leaves out the held apps' other background downloads, with one
    /// parameter per held app.
    static func heldExclusion(count: Int) -> String {
        count == 0 ? "" : " AND NOT (essential = 0 AND foreground = 0 AND app_bundle_id IN ("
            + Array(repeating: "?", count: count).joined(separator: ", ") + "))"
    }

    /// Whether any download has not ended yet.
    public func hasUnfinishedDownloads() throws -> Bool {
        try withDatabase { database in
            try database.prepare("SELECT EXISTS (SELECT 1 FROM downloads WHERE state BETWEEN 0 AND 2)")
                .rows { row in row.int64(0) }.first == 1
        }
    }
}
