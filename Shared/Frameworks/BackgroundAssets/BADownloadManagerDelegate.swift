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
/// for authentication challenges. Implement either challenge form, the completion handler or the
/// `async` one, and the framework calls the one you implement; implement neither and challenges
/// get `.performDefaultHandling`.
///
/// Callbacks arrive one at a time, in order, on a thread of the framework (never the main thread),
/// as Apple's arrive on a background queue: guard state that other threads also touch. The `async`
/// challenge method runs in a task of its own, so it may overlap the callbacks that follow.
/// Adopt it in an `NSObject` subclass, as on Apple platforms:
/// ```swift
/// final class SessionManager: NSObject, BADownloadManagerDelegate { … }
/// ```
/// - Note: Apple's protocol is an Objective-C protocol whose methods are `optional`. Swift on Linux
///   has no Objective-C runtime, so it allows neither `@objc` protocols nor `optional` requirements:
///   here each method has a default implementation instead, and the framework calls the method
///   directly. Code that calls a delegate the Objective-C way, `delegate.downloadDidBegin?(download)`,
///   does not compile here; write `delegate.downloadDidBegin(download)`.
public protocol BADownloadManagerDelegate: NSObjectProtocol {
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

    /// Asks the delegate to answer a server's request for authentication, the `async` form.
    /// - Parameters:
    ///   - download: The download that was challenged.
    ///   - challenge: The server's challenge.
    /// - Returns: A disposition and, for `.useCredential`, a credential.
    func download(_ download: BADownload, didReceive challenge: URLAuthenticationChallenge) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)

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

    /// Does nothing; the file is deleted.
    public func download(_ download: BADownload, failedWithError error: any Error) {}

    /// Does nothing; the file is deleted.
    public func download(_ download: BADownload, finishedWithFileURL fileURL: URL) {}
}
