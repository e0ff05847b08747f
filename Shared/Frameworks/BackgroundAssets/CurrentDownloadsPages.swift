/*
Abstract:
Gathers an app's current downloads from the service a page at a time.
*/

import BackgroundAssetsIPC

/// The app's current downloads, gathered from the pages of `fetchCurrentDownloadsPage`.
///
/// A download the service listed on an earlier page may have finished before the last page, which
/// lists it again with the files being handed over: the later snapshot replaces the earlier one in
/// its place, so each download is listed once.
struct CurrentDownloadsPages {
    /// The downloads gathered so far, oldest first.
    private(set) var downloads: [DownloadDescriptor] = []
    /// Where each download is in ``downloads``, by its unique identifier.
    private var positions: [String: Int] = [:]
    /// Where the next page starts, or `nil` once the last page arrived.
    private(set) var nextPageAfter: Int64? = 0

    /// Adds a page the service answered.
    /// - Throws: ``BAError`` when the response is not a page.
    mutating func add(_ response: ServerResponse) throws {
        guard case let .currentDownloadsPage(page) = response else {
            throw BADownloadManager.unexpected(response, for: "fetchCurrentDownloads")
        }
        for download in page.downloads {
            if let position = positions[download.uniqueIdentifier] {
                downloads[position] = download
            } else {
                positions[download.uniqueIdentifier] = downloads.count
                downloads.append(download)
            }
        }
        // A cursor that does not move on would ask for the same page for ever.
        if let after = page.moreAfter, let previous = nextPageAfter, after <= previous {
            throw BAError(.callerConnectionInvalid, message: "The service answered a page of current downloads after \(previous) with one that ends at \(after); the list cannot be gathered.")
        }
        nextPageAfter = page.moreAfter
    }
}
