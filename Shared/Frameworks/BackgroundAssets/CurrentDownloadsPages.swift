/*
Abstract:
Gathers an app's current downloads from the service a page at a time.
*/

import BackgroundAssetsIPC

/// The app's current downloads, gathered from the service's answers to `fetchCurrentDownloadsPage`
/// (``CurrentDownloadsList``), with Background Assets' errors.
struct CurrentDownloadsPages {
    private var list = CurrentDownloadsList()

    /// The downloads gathered so far, oldest first.
    var downloads: [DownloadDescriptor] { list.downloads }
    /// Where the next page starts, or `nil` once the last page arrived.
    var nextPageAfter: Int64? { list.nextPageAfter }

    /// Adds a page the service answered.
    /// - Throws: ``BAError`` when the response is not a page, or its cursor does not move on.
    mutating func add(_ response: ServerResponse) throws {
        guard case let .currentDownloadsPage(page) = response else {
            throw BADownloadManager.unexpected(response, for: "fetchCurrentDownloads")
        }
        do {
            try list.add(page)
        } catch {
            throw BAError(.callerConnectionInvalid, message: error.description)
        }
    }
}
