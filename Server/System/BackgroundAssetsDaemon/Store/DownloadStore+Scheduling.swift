/*
Abstract:
The queries the download queue needs to run: recovering after a crash, and when to wake next.
*/

import BackgroundAssetsIPC
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

    /// Counts a crash of the service against the download it was working on.
    /// - Parameter rowID: The download the crashing thread named.
    /// - Returns: The download and its crashes so far, or `nil` when it is not in the queue any more
    ///   or has already failed.
    public func recordCrash(blaming rowID: Int64) throws -> (row: DownloadRow, crashes: Int)? {
        try withDatabase { database in
            try database.transaction {
                try database.prepare("UPDATE downloads SET crashes = crashes + 1 WHERE id = ? AND state <> -1")
                    .bind([.integer(rowID)]).run()
                let crashes = try database.prepare("SELECT crashes FROM downloads WHERE id = ? AND state <> -1")
                    .bind([.integer(rowID)]).rows { $0.int(0) }.first
                guard let crashes, let row = try Self.fetchRow(id: rowID, in: database) else { return nil }
                return (row, crashes)
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

    /// The next attempt of a download parked behind an unreachable origin (``ConnectivityWaits``):
    /// 9999-12-31T23:59:59Z, later than any real retry and apart from the `distantFuture` of a
    /// download waiting for credentials, so the index of unparked rows leaves it out.
    public static let parkedUntilReachable = Date(timeIntervalSince1970: 253_402_300_799)

    /// The condition that leaves out parked downloads, spelt as the index of unparked rows spells it,
    /// which SQLite requires before it uses a partial index.
    static let unparked = "next_attempt_at < \(milliseconds(parkedUntilReachable))"

    /// Parks a waiting download behind its origin's probe, with the reason it waits.
    ///
    /// The commit does not wait for the disk: a power cut that takes it back leaves the download due,
    /// and its next attempt parks it again.
    /// - Throws: ``DaemonError/downloadNotFound(key:)`` or a SQLite error.
    public func park(id: Int64, reason: WireFailure, at now: Date) throws {
        try update(id: id, at: now, waitsForDisk: false) { row in
            guard row.state == .waiting else { return }
            row.nextAttemptAt = Self.parkedUntilReachable
            row.lastError = reason
        }
    }

    /// Makes parked downloads due at `now`: their origin answered, or a restart forgot it.
    /// - Parameter ids: The downloads, or `nil` for every parked download.
    /// - Returns: How many were parked and are now due.
    @discardableResult
    public func unpark(_ ids: [Int64]? = nil, at now: Date) throws -> Int {
        let parked = Self.milliseconds(Self.parkedUntilReachable)
        let update = "UPDATE downloads SET next_attempt_at = ? WHERE state = 1 AND next_attempt_at >= \(parked)"
        return try withDatabase(waitsForDisk: false) { database in
            guard let ids else {
                try database.prepare(update).bind([.integer(Self.milliseconds(now))]).run()
                return database.changedRowCount
            }
            return try database.transaction {
                var changed = 0
                // In slices, under SQLite's limit of bound parameters.
                for start in stride(from: 0, to: ids.count, by: 500) {
                    let slice = ids[start..<min(start + 500, ids.count)]
                    let marks = Array(repeating: "?", count: slice.count).joined(separator: ", ")
                    try database.prepare(update + " AND id IN (\(marks))")
                        .bind([.integer(Self.milliseconds(now))] + slice.map { .integer($0) }).run()
                    changed += database.changedRowCount
                }
                return changed
            }
        }
    }

    /// Whether any download has not ended yet.
    public func hasUnfinishedDownloads() throws -> Bool {
        try withDatabase { database in
            // The index of active downloads holds only those: its first entry answers, however
            // many ended rows the queue keeps.
            try database.prepare(
                "SELECT EXISTS (SELECT 1 FROM downloads INDEXED BY downloads_active_unique_id WHERE state BETWEEN 0 AND 2)")
                .rows { row in row.int64(0) }.first == 1
        }
    }
}
