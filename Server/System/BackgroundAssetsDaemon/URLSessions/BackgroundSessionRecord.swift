/*
Abstract:
One app's background session as the service keeps it: settings, outstanding tasks, and the events waiting for the app.
*/

import BackgroundAssetsIPC
import Foundation

/// Which app's session a record is: the identity two apps never share.
public struct BackgroundSessionKey: Codable, Sendable, Hashable, Comparable {
    /// The app that made the session.
    public var bundleIdentifier: String
    /// The session's identifier.
    public var sessionIdentifier: String

    /// Creates a key.
    public init(bundleIdentifier: String, sessionIdentifier: String) {
        self.bundleIdentifier = bundleIdentifier
        self.sessionIdentifier = sessionIdentifier
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.bundleIdentifier, lhs.sessionIdentifier) < (rhs.bundleIdentifier, rhs.sessionIdentifier)
    }
}

/// A session's durable state: what must survive the app's exit and a restart of the service.
public struct BackgroundSessionRecord: Codable, Sendable, Equatable {
    /// Whose session.
    public var key: BackgroundSessionKey
    /// The settings of the latest process that made it.
    public var settings: BackgroundSessionSettings
    /// The tasks whose completion the app has not received, by identifier.
    public var tasks: [Int: BackgroundTaskSnapshot] = [:]
    /// When each running task was first resumed (device time), for `timeoutIntervalForResource`.
    public var started: [Int: Date] = [:]
    /// The identifier the next task gets; identifiers are never reused within a session.
    public var nextTaskIdentifier = 1
    /// Events that happened while no process had the session, in order.
    public var waiting: [BackgroundSessionEvent] = []
    /// Whether the service launched the app for these events, so the next attachment ends them
    /// with `waitingEventsDelivered`.
    public var launchedForEvents = false
    /// Set by `finishTasksAndInvalidate()`: the session ends when its last task does.
    public var isFinishing = false
    /// The resume data of tasks that continue from a partial file the system keeps (a task made
    /// from resume data, or suspended), until their transfer takes the file over.
    public var resumeData: [Int: Data]?
    /// A finished file and its task's completion sent to the process that has the session, kept
    /// until its `didFinishDownloadingTo` returns: a process that ends before then leaves them to
    /// the next one instead of losing the file.
    public var unacknowledged: [BackgroundSessionEvent]?

    /// Creates an empty session.
    public init(key: BackgroundSessionKey, settings: BackgroundSessionSettings) {
        self.key = key
        self.settings = settings
    }
}
