/*
Abstract:
The service's status with every download, put together from the pages the service answers with.
*/

import BackgroundAssetsIPC
import ServiceClient

extension ServiceConnection {
    /// The service's status with every download in its queue: the `status` answer, then each page
    /// after it, until the last.
    ///
    /// The service lists downloads a page at a time (``DownloadStatusPage``), so a large queue never
    /// makes it hold one answer with every row. Pages are keyed by row, so a download present
    /// throughout is listed exactly once even while the queue changes between two pages.
    /// - Returns: The status, its `downloads` complete and `moreDownloadsAfter` `nil`.
    /// - Throws: What the requests throw, or ``DebugToolError`` when a page does not move past the last.
    func fetchStatusWithEveryDownload() async throws -> ServiceStatus {
        var status = try await send(.core(.fetchStatus)).expectedStatus()
        var cursor = status.moreDownloadsAfter
        while let after = cursor {
            let page = try await send(.core(.fetchDownloadStatuses(after: after))).expectedDownloadStatuses()
            status.downloads += page.downloads
            // A service whose pages did not move on would keep the tool asking for ever.
            if let next = page.moreAfter, next <= after {
                throw DebugToolError("The service's page of downloads after row \(after) ends at row \(next), not after it; "
                    + "rebuild the tool and the service from the same sources.")
            }
            cursor = page.moreAfter
        }
        status.moreDownloadsAfter = nil
        return status
    }
}
