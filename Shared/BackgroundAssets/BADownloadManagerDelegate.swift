/*
Abstract:
The callbacks an app receives about its downloads, every one optional.
*/

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The methods the download manager calls as the app's downloads progress and end.
///
/// Every method is optional: the protocol extension supplies a default that does nothing, except
/// the challenge method, whose default answers `.performDefaultHandling`.
/// - Note: Apple's protocol is an Objective-C protocol with `optional` methods. Here the
///   requirements have defaults instead, and the protocol requires `Sendable` because callbacks
///   arrive on a background thread: make the delegate an actor-free class that guards its state
///   (for example with a `Mutex`), or hop to the main actor inside each method.
public protocol BADownloadManagerDelegate: AnyObject, Sendable {
    /// Tells the delegate that a download started transferring.
    /// - Parameter download: The download, in the ``BADownload/State/downloading`` state.
    func downloadDidBegin(_ download: BADownload)

    /// Tells the delegate that a download stopped transferring without ending, for example while it
    /// is promoted to the foreground; it continues from the same byte later.
    /// - Parameter download: The download.
    func downloadDidPause(_ download: BADownload)

    /// Tells the delegate about a download's progress.
    /// - Parameters:
    ///   - download: The download.
    ///   - bytesWritten: The bytes written since the previous call.
    ///   - totalBytesWritten: The bytes written in all.
    ///   - totalBytesExpectedToWrite: The size of the file, or -1 when it is not known yet.
    func download(
        _ download: BADownload, didWriteBytes bytesWritten: Int64, totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64)

    /// Asks the delegate to answer a server's request for authentication.
    /// - Parameters:
    ///   - download: The download that was challenged.
    ///   - challenge: The server's challenge.
    ///   - completionHandler: Call it once, with a disposition and, for `.useCredential`, a credential.
    func download(
        _ download: BADownload, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void)

    /// Tells the delegate that a download failed.
    /// - Parameters:
    ///   - download: The download, in the ``BADownload/State/failed`` state.
    ///   - error: Why it failed: a ``BAError``, a `URLError`, or another error from the service.
    func download(_ download: BADownload, failedWithError error: any Error)

    /// Tells the delegate that a download finished.
    /// - Parameters:
    ///   - download: The download, in the ``BADownload/State/finished`` state.
    ///   - fileURL: The downloaded file, inside the app group container; move it before returning,
    ///     because the system deletes it when this method returns.
    func download(_ download: BADownload, finishedWithFileURL fileURL: URL)
}

extension BADownloadManagerDelegate {
    /// Does nothing.
    public func downloadDidBegin(_ download: BADownload) {}

    /// Does nothing.
    public func downloadDidPause(_ download: BADownload) {}

    /// Does nothing.
    public func download(
        _ download: BADownload, didWriteBytes bytesWritten: Int64, totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64
    ) {}

    /// Answers `.performDefaultHandling`: the download fails with the server's response.
    public func download(
        _ download: BADownload, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.performDefaultHandling, nil)
    }

    /// Does nothing; the file is deleted.
    public func download(_ download: BADownload, failedWithError error: any Error) {}

    /// Does nothing; the file is deleted.
    public func download(_ download: BADownload, finishedWithFileURL fileURL: URL) {}
}
