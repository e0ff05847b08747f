/*
Abstract:
One app's background session as `backgroundassets-debug status` shows it.
*/

import Foundation

/// A background session the service keeps: whose it is, its settings, its tasks and what waits for the app.
public struct URLSessionStatus: Codable, Sendable, Equatable {
    /// The app that made the session.
    public var bundleIdentifier: String
    /// The session's settings, the latest an app process gave.
    public var settings: BackgroundSessionSettings
    /// The tasks whose completion the app has not received.
    public var tasks: [BackgroundTaskSnapshot]
    /// How many events wait for the app to make the session again.
    public var waitingEvents: Int
    /// Whether a process of the app has the session now.
    public var isAttached: Bool
    /// Why each task that does not transfer yet waits, by task identifier.
    public var waitReasons: [String: String]

    /// Creates a status.
    public init(bundleIdentifier: String, settings: BackgroundSessionSettings, tasks: [BackgroundTaskSnapshot],
                waitingEvents: Int, isAttached: Bool, waitReasons: [String: String] = [:]) {
        self.bundleIdentifier = bundleIdentifier
        self.settings = settings
        self.tasks = tasks
        self.waitingEvents = waitingEvents
        self.isAttached = isAttached
        self.waitReasons = waitReasons
    }
}
