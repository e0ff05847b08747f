/*
Abstract:
A Background Tasks request or running task as `status` and `tasks` report it.
*/

import Foundation

/// One pending request or running task of an app, with when it may run or how it runs.
public struct TaskStatus: Codable, Sendable, Equatable {
    /// Whether the request waits or runs.
    public enum State: String, Codable, Sendable {
        /// Submitted and not yet handed to the app.
        case pending
        /// Handed to the app's launch handler and not yet completed.
        case running
    }

    /// The app.
    public var bundleIdentifier: String
    /// The request.
    public var request: TaskRequestDescriptor
    /// Pending or running.
    public var state: State
    /// When it may run or why not, or how long it has run: one sentence.
    public var summary: String
    /// A running continued-processing task's last reported progress.
    public var progress: TaskProgress?
    /// For a pending request that may not run yet, the rule that holds it (`earliestBegin`,
    /// `spacing`, `usage`, `appInForeground`, `needsExternalPower`, `needsNetwork`, `lowPowerMode`,
    /// `backgroundRefreshOff`, `appUnused`, `notLaunchable`).
    public var waitingFor: String?
    /// When that rule lifts by itself (device time), for the rules that time lifts.
    public var notBefore: Date?

    /// Creates a status.
    public init(
        bundleIdentifier: String, request: TaskRequestDescriptor, state: State, summary: String,
        progress: TaskProgress? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.request = request
        self.state = state
        self.summary = summary
        self.progress = progress
    }
}
