/*
Abstract:
`URLSession(configuration:delegate:delegateQueue:)` with a background configuration: the system's session, as on Apple platforms.
*/

import Foundation
import FoundationNetworking

// On Apple platforms NSURLSession is a class cluster: its initialiser returns a private background
// subclass for a background configuration, so Apple's code writes `URLSession(configuration: config,
// delegate: self, delegateQueue: nil)` and gets a session the system runs. A Swift initialiser cannot
// return a subclass, and swift-corelibs-foundation's would run the tasks in the app's process. These
// two functions carry the initialiser's name and labels and take the background configuration's
// type: for a configuration from `background(withIdentifier:)` they are the closer match, so that
// unchanged line returns a ``BackgroundURLSession``; every other configuration still reaches
// Foundation's initialiser. In type positions `URLSession` is still Foundation's class.

/// Creates the system's background session for a background configuration.
/// - Parameters:
///   - configuration: A configuration from `URLSessionConfiguration.background(withIdentifier:)`.
///   - delegate: The session's delegate; the session keeps it until it is invalidated. Adopt
///     `URLSessionDownloadDelegate` to receive the files.
///   - queue: The queue the delegate's methods run on, or `nil` for a serial queue of the session's.
/// - Returns: A ``BackgroundURLSession``, typed as Foundation's `URLSession`.
public func URLSession(
    configuration: BackgroundURLSessionConfiguration, delegate: (any FoundationNetworking.URLSessionDelegate)?,
    delegateQueue queue: OperationQueue?
) -> FoundationNetworking.URLSession {
    BackgroundURLSession(configuration: configuration, delegate: delegate, delegateQueue: queue,
                         service: BackgroundURLSessionSystem.current)
}

/// Creates the system's background session for a background configuration, without a delegate.
///
/// A background session without a delegate downloads, but nobody receives the files; Apple's
/// documentation asks for a delegate.
public func URLSession(configuration: BackgroundURLSessionConfiguration) -> FoundationNetworking.URLSession {
    URLSession(configuration: configuration, delegate: nil, delegateQueue: nil)
}

extension FoundationNetworking.URLSession {
    /// All the session's tasks that have not completed.
    ///
    /// - Note: Foundation on Linux has `getAllTasks(completionHandler:)` only; this is Apple's
    ///   asynchronous form of it.
    public var allTasks: [URLSessionTask] {
        get async {
            await withCheckedContinuation { continuation in
                getAllTasks { continuation.resume(returning: $0) }
            }
        }
    }
}
