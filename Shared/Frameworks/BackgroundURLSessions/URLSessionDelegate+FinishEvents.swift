/*
Abstract:
Foundation's session delegate protocols with `urlSessionDidFinishEvents(forBackgroundURLSession:)`, which Linux's lack.
*/

import Foundation
import FoundationNetworking

// On Apple platforms URLSessionDelegate declares urlSessionDidFinishEvents(forBackgroundURLSession:);
// swift-corelibs-foundation does not, so a session could not call a delegate's implementation of it.
// These three protocols refine Foundation's and add it, under Foundation's names: for a file that
// imports BackgroundURLSessions instead of Foundation they are the ones `URLSessionDelegate`,
// `URLSessionTaskDelegate` and `URLSessionDownloadDelegate` name, so Apple's delegate code adopts them
// unchanged. Every other requirement is Foundation's own, and a delegate that adopts Foundation's
// protocols directly still receives everything but this one call.

/// Foundation's `URLSessionDelegate`, with the call that ends a background launch's events.
public protocol URLSessionDelegate: FoundationNetworking.URLSessionDelegate {
    /// Tells the delegate that all messages enqueued for a background session have been delivered.
    ///
    /// Called after the events that waited while the app was not running, when the system launched
    /// the app for them. Call the completion handler that
    /// `application(handleEventsForBackgroundURLSession:completionHandler:)` received, so the system
    /// can end the background launch.
    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession)
}

extension URLSessionDelegate {
    /// Does nothing, as the optional method's absence does on Apple platforms.
    public func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {}
}

/// Foundation's `URLSessionTaskDelegate`, with ``URLSessionDelegate/urlSessionDidFinishEvents(forBackgroundURLSession:)``.
public protocol URLSessionTaskDelegate: URLSessionDelegate, FoundationNetworking.URLSessionTaskDelegate {}

/// Foundation's `URLSessionDownloadDelegate`, with ``URLSessionDelegate/urlSessionDidFinishEvents(forBackgroundURLSession:)``.
public protocol URLSessionDownloadDelegate: URLSessionTaskDelegate, FoundationNetworking.URLSessionDownloadDelegate {}
