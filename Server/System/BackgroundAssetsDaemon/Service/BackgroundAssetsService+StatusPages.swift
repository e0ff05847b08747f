/*
Abstract:
The downloads `status` lists, a page per answer, read off the service's actor.
*/

import BackgroundAssetsIPC

extension BackgroundAssetsService {
    /// A page of every app's downloads for `status`, read and converted on the store reader's thread.
    /// - Parameter after: Where the page starts: 0 for the first, then the previous page's `moreAfter`.
    /// - Returns: The page.
    func downloadStatuses(after: Int64) async throws -> DownloadStatusPage {
        try await storeReader.read { try $0.statusPage(after: after) }
    }
}
