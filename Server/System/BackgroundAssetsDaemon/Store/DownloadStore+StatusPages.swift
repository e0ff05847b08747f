/*
Abstract:
The downloads `status` lists, read a page at a time in row order.
*/

import BackgroundAssetsIPC
import Foundation

extension DownloadStore {
    /// The downloads a `status` answer carries at most, and each later page.
    ///
    /// About 530 KB of JSON: 30 tools asking at once with 10,000 downloads in the queue cost the
    /// service 30 pages in memory, not 30 answers of 5 MB each.
    public static let statusPageSize = 1_000

    /// A page of every app's downloads, ended ones included, in row order (oldest first), as
    /// `backgroundassets-debug status` shows them.
    ///
    /// Pages are keyed by row id, not by position: a download present from the first page to the
    /// last is listed exactly once however the queue changes in between; one added meanwhile is
    /// listed on a later page, and one removed may or may not be.
    /// - Parameters:
    ///   - after: The row id the page starts after: 0 for the first page, then the last page's ``DownloadStatusPage/moreAfter``.
    ///   - limit: The most downloads on the page.
    /// - Returns: The page; its `moreAfter` is `nil` when no download follows it.
    public func statusPage(after: Int64, limit: Int = statusPageSize) throws -> DownloadStatusPage {
        let limit = max(1, limit)
        // One row more than the page holds says whether another page follows, so the last page is
        // never an empty one.
        let rows = try withReader { database in
            try database.prepare("SELECT \(Self.columns) FROM downloads WHERE id > ? ORDER BY id LIMIT ?")
                .bind([.integer(after), .int(limit + 1)]).rows(Self.readRow)
        }
        let page = rows.prefix(limit)
        return DownloadStatusPage(
            downloads: page.map(\.status), moreAfter: rows.count > limit ? page.last?.id : nil)
    }
}
