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

    /// The earliest time a waiting download is due, or `nil` when none is waiting.
    public func earliestNextAttempt() throws -> Date? {
        try withDatabase { database in
            // Named, because the planner would otherwise scan every waiting row through the run-order index.
            try database.prepare(
                "SELECT MIN(next_attempt_at) FROM downloads INDEXED BY downloads_next_attempt WHERE state = 1")
                .rows { row in row.optionalInt64(0).map(Self.date) }.first ?? nil
        }
    }

    /// Whether any download has not ended yet.
    public func hasUnfinishedDownloads() throws -> Bool {
        try withDatabase { database in
            try database.prepare("SELECT EXISTS (SELECT 1 FROM downloads WHERE state BETWEEN 0 AND 2)")
                .rows { row in row.int64(0) }.first == 1
        }
    }
}
