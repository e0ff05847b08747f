/*
Abstract:
What the system knows of one background download: its request, state, counts and outcome.
*/

import Foundation

/// One task of a background session, as the system last described it.
///
/// A new process that makes the session again receives these for the tasks still outstanding,
/// and the framework builds its `URLSessionDownloadTask` objects from them.
public struct BackgroundTaskSnapshot: Codable, Sendable, Hashable {
    /// A task's state, with the raw values of Foundation's `URLSessionTask.State`.
    public enum State: Int, Codable, Sendable, Hashable {
        /// Transferring, or waiting for the system to start it.
        case running = 0
        /// Created and not resumed, or suspended by the app.
        case suspended = 1
        /// Cancelled; its completion has not been delivered yet.
        case canceling = 2
        /// Its completion has been delivered, or is being delivered.
        case completed = 3
    }

    /// The task's identifier, unique within its session across every process of the app.
    public var taskIdentifier: Int
    /// The request the app made.
    public var originalRequest: BackgroundTaskRequest
    /// The request after redirects.
    public var currentRequest: BackgroundTaskRequest
    /// The state.
    public var state: State
    /// The app's description of the task (`taskDescription`).
    public var taskDescription: String?
    /// The earliest date the transfer may begin (`earliestBeginDate`).
    public var earliestBeginDate: Date?
    /// The app's estimate of the response's size (`countOfBytesClientExpectsToReceive`), or -1.
    public var countOfBytesClientExpectsToReceive: Int64
    /// The bytes received so far.
    public var countOfBytesReceived: Int64
    /// The bytes expected in all, from the response's length, or -1 when unknown.
    public var countOfBytesExpectedToReceive: Int64
    /// The bytes of an upload's body sent so far; `nil` for a download.
    public var countOfBytesSent: Int64?
    /// The length of an upload's body; `nil` for a download.
    public var countOfBytesExpectedToSend: Int64?
    /// The server's response, once one arrived.
    public var response: BackgroundTaskResponse?
    /// Why the task failed or was cancelled, once it completed that way.
    public var failure: BackgroundTaskFailure?

    /// Creates a snapshot of a new, suspended task.
    public init(taskIdentifier: Int, request: BackgroundTaskRequest, taskDescription: String? = nil,
                earliestBeginDate: Date? = nil, countOfBytesClientExpectsToReceive: Int64 = -1) {
        self.taskIdentifier = taskIdentifier
        originalRequest = request
        currentRequest = request
        state = .suspended
        self.taskDescription = taskDescription
        self.earliestBeginDate = earliestBeginDate
        self.countOfBytesClientExpectsToReceive = countOfBytesClientExpectsToReceive
        countOfBytesReceived = 0
        countOfBytesExpectedToReceive = -1
    }
}
