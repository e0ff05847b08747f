/*
Abstract:
The protocol a downloader extension adopts: the entry points the system calls, each optional.
*/

import ExtensionFoundation
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An interface for reacting to app life-cycle events and processing concluded asset downloads
/// while the app isn't running.
///
/// The system launches the extension for content requests (install, update, periodic checks) and
/// for downloads that end while no app delegate is connected. Adopt the protocol on a type marked
/// `@main`: the protocol supplies `main()`, which connects to the system and runs each entry point
/// it is asked for, until the system terminates the extension.
///
/// ```swift
/// @main
/// struct BackgroundDownloadHandler: BADownloaderExtension {
///     func downloads(for request: BAContentRequest, manifestURL: URL,
///                    extensionInfo: BAAppExtensionInfo) -> Set<BADownload> { ... }
/// }
/// ```
/// Every entry point is timed against a runtime limit, and the app has a daily runtime budget;
/// an extension that overruns either, or uses too much memory, is killed. The process is
/// terminated after its work, so it cannot rely on state kept in memory between launches.
/// The system creates one instance with `init()` and calls its entry points one at a time, in the
/// order it asks for them, on a background thread; only ``backgroundDownload(_:didReceive:)``, being
/// asynchronous, runs in a task of its own and may overlap another entry point.
///
/// The protocol refines ExtensionFoundation's `AppExtension`, and supplies its `configuration`.
/// - Note: Apple's methods are optional; here the methods have default implementations, and the
///   type must be `Sendable` because entry points run off the main thread. Started by a person
///   rather than the system, `main()` explains how to trigger the extension
///   (`backgroundassets-debug simulate --app-install`) and exits with status 64.
public protocol BADownloaderExtension: AppExtension, _BADownloaderExtensionTermination, Sendable {
    /// Creates the extension; the system creates one instance per launch, off the main actor.
    nonisolated init()

    /// Returns the downloads to schedule for a content request.
    ///
    /// Scheduling from inside this method is refused: return the downloads instead. Essential
    /// downloads are accepted only for install and update requests.
    /// - Parameters:
    ///   - request: Why the system is asking: install, update or a periodic check.
    ///   - manifestURL: A read-only copy of the file at the app's `BAManifestURL`, deleted when this returns.
    ///   - extensionInfo: The download allowance left before the app's first launch.
    /// - Returns: The downloads to schedule.
    func downloads(for request: BAContentRequest, manifestURL: URL, extensionInfo: BAAppExtensionInfo)
        -> Set<BADownload>

    /// Answers a server's request for authentication for a download no app delegate could answer.
    /// - Parameters:
    ///   - download: The download that was challenged.
    ///   - challenge: The server's challenge.
    /// - Returns: A disposition and, for `.useCredential`, a credential.
    func backgroundDownload(_ download: BADownload, didReceive challenge: URLAuthenticationChallenge) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)

    /// Tells the extension that a download failed while no app delegate was connected, or an
    /// essential download failed during the install (the manifest's own download included).
    /// - Parameters:
    ///   - download: The download that failed.
    ///   - error: Why it failed.
    func backgroundDownload(_ download: BADownload, failedWithError error: any Error)

    /// Tells the extension that a download finished while no app delegate was connected, or an
    /// essential download finished during the install.
    /// - Parameters:
    ///   - download: The download that finished.
    ///   - fileURL: The file, inside the app group container; move it before returning, because
    ///     the system deletes it when this method returns.
    func backgroundDownload(_ download: BADownload, finishedWithFileURL fileURL: URL)

    /// Tells the extension that the system is about to terminate it.
    ///
    /// Deprecated, as in Apple's framework since iOS 16.4 and macOS 13.3: the system may terminate an
    /// extension without calling it, so don't rely on it. It is still called here when the extension
    /// ends normally.
    @available(*, deprecated, message: "The system may terminate the extension without calling this method.")
    func extensionWillTerminate()
}

/// The framework's view of `extensionWillTerminate()`: the runner still calls the deprecated method,
/// and reaching it through this protocol keeps that call free of a deprecation warning.
public protocol _BADownloaderExtensionTermination {
    /// Tells the extension that the system is about to terminate it.
    func extensionWillTerminate()
}

extension BADownloaderExtension {
    /// Returns no downloads.
    public func downloads(for request: BAContentRequest, manifestURL: URL, extensionInfo: BAAppExtensionInfo)
        -> Set<BADownload>
    {
        []
    }

    /// Answers `.performDefaultHandling`.
    public func backgroundDownload(_ download: BADownload, didReceive challenge: URLAuthenticationChallenge) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)
    {
        (.performDefaultHandling, nil)
    }

    /// Does nothing.
    public func backgroundDownload(_ download: BADownload, failedWithError error: any Error) {}

    /// Does nothing; the file is deleted.
    public func backgroundDownload(_ download: BADownload, finishedWithFileURL fileURL: URL) {}

    /// Does nothing.
    public func extensionWillTerminate() {}
}
