/*
Abstract:
Foundation's session delegate protocols with `urlSessionDidFinishEvents(forBackgroundURLSession:)`, which Linux's lack.
*/

import Foundation
import FoundationNetworking

// On Apple platforms URLSessionDelegate declares urlSessionDidFinishEvents(forBackgroundURLSession:);
// swift-corelibs-foundation does not, so a session could not call a delegate's implementation of it.
// These protocols refine Foundation's and add it, under Foundation's names: a file that imports
// BackgroundURLSessions names these when it writes `URLSessionDelegate`, `URLSessionTaskDelegate`,
// `URLSessionDataDelegate` or `URLSessionDownloadDelegate`, so Apple's delegate code adopts them
// unchanged. Every other requirement is Foundation's own, and a delegate that adopts Foundation's
// protocols directly still receives everything but this one call.
//
// They live in a module of their own, which BackgroundURLSessions re-exports protocol by protocol
// (`@_exported import protocol`). Swift lets a declaration shadow another of the same name only
// when every import that makes the other visible goes through the shadowing module; a file that
// also imports FoundationNetworking, or BackgroundTasks (which re-exports it), breaks that rule
// and would find both. A declaration imported by name wins over one imported with a whole module,
// whatever else the file imports, so these names are never ambiguous.

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

/// Foundation's `URLSessionDataDelegate`, with ``URLSessionDelegate/urlSessionDidFinishEvents(forBackgroundURLSession:)``:
/// the delegate of a background upload, which receives the server's answer.
public protocol URLSessionDataDelegate: URLSessionTaskDelegate, FoundationNetworking.URLSessionDataDelegate {}

/// Foundation's `URLSessionDownloadDelegate`, with ``URLSessionDelegate/urlSessionDidFinishEvents(forBackgroundURLSession:)``.
public protocol URLSessionDownloadDelegate: URLSessionTaskDelegate, FoundationNetworking.URLSessionDownloadDelegate {}
