/*
Abstract:
Continued-processing requests waiting for room to run, in the order they were submitted.
*/

import BackgroundAssetsIPC
import Foundation

/// The continued-processing requests that wait for room, first submitted first started.
///
/// They live as long as the app that submitted them runs, as Apple cancels queued requests when a
/// person removes the app from the app switcher, so they are kept in memory with the connection
/// that submitted them rather than in the task store. A value the ``TaskHost`` owns; no I/O.
public struct ContinuedProcessingQueue: Sendable, Equatable {
    /// One waiting request.
    public struct Entry: Sendable, Equatable {
        /// The app that submitted it.
        public var bundleIdentifier: String
        /// The request.
        public var request: TaskRequestDescriptor
        /// The connection that submitted it, which runs it.
        public var connection: UInt64
        /// When it was submitted (real time).
        public var submitted: Date

        /// Creates an entry.
        public init(bundleIdentifier: String, request: TaskRequestDescriptor, connection: UInt64, submitted: Date) {
            self.bundleIdentifier = bundleIdentifier
            self.request = request
            self.connection = connection
            self.submitted = submitted
        }
    }

    private var entries: [Entry] = []

    /// Creates an empty queue.
    public init() {}

    /// Every waiting request, first submitted first.
    public var all: [Entry] { entries }

    /// Adds a request at the back; one with the same app and identifier is replaced where it was.
    public mutating func enqueue(_ entry: Entry) {
        if let index = entries.firstIndex(where: { $0.bundleIdentifier == entry.bundleIdentifier && $0.request.identifier == entry.request.identifier }) {
            entries[index] = entry
        } else {
            entries.append(entry)
        }
    }

    /// The app's waiting requests.
    public func entries(of app: String) -> [Entry] {
        entries.filter { $0.bundleIdentifier == app }
    }

    /// Removes the app's request with this identifier, or all of the app's when `nil`.
    /// - Returns: How many were removed.
    @discardableResult
    public mutating func remove(app: String, identifier: String?) -> Int {
        let before = entries.count
        entries.removeAll { $0.bundleIdentifier == app && (identifier == nil || $0.request.identifier == identifier) }
        return before - entries.count
    }

    /// Removes and returns the requests of a closed connection: the app exited, so they are cancelled.
    public mutating func removeConnection(_ connection: UInt64) -> [Entry] {
        let removed = entries.filter { $0.connection == connection }
        entries.removeAll { $0.connection == connection }
        return removed
    }

    /// Removes and returns the first request, to start it.
    public mutating func popFirst() -> Entry? {
        entries.isEmpty ? nil : entries.removeFirst()
    }
}

/// When continued-processing tasks run and when the system expires them.
///
/// Apple documents that such a task starts at once when the system has room, that a queued one
/// waits, and that a task which shows no progress may be expired; it gives no numbers. These are
/// this stand-in's.
public enum ContinuedProcessingPolicy {
    /// How many continued-processing tasks the device runs at once, across apps.
    public static let maximumRunning = 2
    /// How long a running task may go without reporting progress before it is expired.
    public static let stallTimeout: TimeInterval = 60
    /// How long an expired task has to complete before it no longer counts as running.
    public static let expirationGrace: TimeInterval = 5

    /// Whether one more continued-processing task may start while `running` run.
    public static func hasRoom(running: Int) -> Bool {
        running < maximumRunning
    }
}
