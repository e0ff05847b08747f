/*
Abstract:
The downloads fetchCurrentDownloads lists to an app, read a page at a time in row order.
*/

import BackgroundAssetsIPC

extension DownloadStore {
    /// The most downloads a page of an app's current downloads carries: about 350 KB of JSON, where
    /// the whole list of 100,000 downloads would be more than a frame may hold.
    public static let currentDownloadsPageSize = 1_000

    /// A page of the app's downloads that have not ended, in row order (oldest first), without the
    /// archives of managed asset packs and the tasks of background URL sessions.
    ///
    /// Keyed by row id, like ``statusPage(after:limit:)``: a download that has not ended from the first
    /// page to the last is listed exactly once however the queue changes in between.
    /// - Parameters:
    ///   - bundleIdentifier: The app.
    ///   - after: The row id the page starts after: 0 for the first page, then the previous page's `moreAfter`.
    ///   - limit: The most downloads on the page.
    /// - Returns: The rows, and the row id the next page starts after, or `nil` when none follows.
    public func currentDownloadsPage(
        bundleIdentifier: String, after: Int64, limit: Int = currentDownloadsPageSize
    ) throws -> (rows: [DownloadRow], moreAfter: Int64?) {
        let limit = max(1, limit)
        // The unary `+` keeps SQLite off the app's index, whose rows it would sort by id for every
        // page: the row order is the table's own, so the scan starts at the cursor and stops at the limit.
        let rows = try withReader { database in
            try database.prepare(
                "SELECT \(Self.columns) FROM downloads WHERE id > ? AND +app_bundle_id = ? AND +state BETWEEN 0 AND 2 "
                    + "AND \(Self.notAssetPack) AND kind != '\(DownloadDescriptor.Kind.backgroundSession.rawValue)' "
                    + "ORDER BY id LIMIT ?"
            ).bind([.integer(after), .text(bundleIdentifier), .int(limit + 1)]).rows(Self.readRow)
        }
        let page = Array(rows.prefix(limit))
        return (page, rows.count > limit ? page.last?.id : nil)
    }
}
