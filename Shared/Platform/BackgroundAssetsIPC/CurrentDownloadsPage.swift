/*
Abstract:
A page of an app's current downloads, the answer to fetchCurrentDownloadsPage.
*/

/// A page of what `fetchCurrentDownloads` lists: the app's downloads that have not ended, oldest
/// first, and on the last page those whose file is still being handed over.
///
/// An app with many downloads gets them a page at a time, so that no answer holds all of them: a
/// frame is at most ``WireProtocol/maximumFrameSize``, which 45,000 downloads would fill.
public struct CurrentDownloadsPage: Codable, Sendable, Equatable {
    /// The downloads of this page.
    public var downloads: [DownloadDescriptor]
    /// Where the next page starts (ask with `fetchCurrentDownloadsPage(after:)`), or `nil` when this is the last page.
    public var moreAfter: Int64?

    /// Creates a page.
    /// - Parameters:
    ///   - downloads: The downloads of this page.
    ///   - moreAfter: Where the next page starts, or `nil` for the last page.
    public init(downloads: [DownloadDescriptor], moreAfter: Int64?) {
        self.downloads = downloads
        self.moreAfter = moreAfter
    }
}

/// An app's current downloads, gathered from the pages of `fetchCurrentDownloadsPage`.
///
/// A download the service listed on an earlier page may have finished before the last page, which
/// lists it again with the files being handed over: the later snapshot replaces the earlier one in
/// its place, so each download is listed once.
public struct CurrentDownloadsList: Sendable {
    /// A page whose cursor does not move on: asking for the next page would ask for the same one for ever.
    public struct StalledCursor: Error, CustomStringConvertible {
        /// Where the page was asked to start.
        public let previous: Int64
        /// Where the page said the next one starts.
        public let answered: Int64

        public var description: String {
            "The service answered a page of current downloads after \(previous) with one that ends at \(answered); the list cannot be gathered."
        }
    }

    /// The downloads gathered so far, oldest first.
    public private(set) var downloads: [DownloadDescriptor] = []
    /// Where each download is in ``downloads``, by its unique identifier.
    private var positions: [String: Int] = [:]
    /// Where the next page starts, or `nil` once the last page arrived.
    public private(set) var nextPageAfter: Int64? = 0

    /// An empty list, waiting for its first page.
    public init() {}

    /// Adds a page the service answered.
    /// - Throws: ``StalledCursor`` when the page's cursor does not move on.
    public mutating func add(_ page: CurrentDownloadsPage) throws(StalledCursor) {
        for download in page.downloads {
            if let position = positions[download.uniqueIdentifier] {
                downloads[position] = download
            } else {
                positions[download.uniqueIdentifier] = downloads.count
                downloads.append(download)
            }
        }
        if let after = page.moreAfter, let previous = nextPageAfter, after <= previous {
            throw StalledCursor(previous: previous, answered: after)
        }
        nextPageAfter = page.moreAfter
    }
}
