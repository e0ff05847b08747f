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
