/*
Abstract:
What the background-session state asks the service to do: transfers in the queue, events, files, launches, records.
*/

import BackgroundAssetsIPC
import Foundation

/// One thing to do, returned by ``BackgroundSessionState``; the service does them in order.
public enum BackgroundSessionAction: Sendable, Equatable {
    /// Schedule a task's transfer in the shared queue, as ``BackgroundSessionPolicy/queueIdentifier(for:task:)``,
    /// not before a device time, and only when the device meets a discretionary session's conditions.
    case scheduleTransfer(BackgroundSessionKey, task: Int, request: BackgroundTaskRequest, notBefore: Date?, discretionary: Bool)
    /// Continue a resumed task's transfer from a partial file resume data named.
    case adoptPartialFile(BackgroundSessionKey, task: Int, partialFileName: String, bytes: Int64, entityTag: String?)
    /// Pause a transfer; it keeps its bytes.
    case pauseTransfer(BackgroundSessionKey, task: Int)
    /// Remove a transfer from the queue, deleting its partial file unless `keepPartialFile`.
    case cancelTransfer(BackgroundSessionKey, task: Int, keepPartialFile: Bool)
    /// Move a finished file into the app's container (``BackgroundSessionHost/handOver(_:for:task:appGroup:)``).
    case handOver(BackgroundSessionKey, task: Int, file: URL, response: BackgroundTaskResponse)
    /// Send an event to the connection that has the session.
    case send(connection: UInt64, BackgroundSessionKey, BackgroundSessionEvent)
    /// End an attachment's event stream: another process took the session over, or it was invalidated.
    case finishStream(connection: UInt64, BackgroundSessionKey)
    /// Launch the installed app in the background for the session's events, as for Background Tasks.
    case launchApp(bundleIdentifier: String, session: String)
    /// End the app's background launch if nothing else keeps it (no task, no session events).
    case endBackgroundLaunchIfIdle(bundleIdentifier: String)
    /// Delete a handed-over file the app did not move.
    case removeFile(URL)
    /// Write the session's record (``BackgroundSessionStore/save(_:)``), or delete it when `nil`.
    case persist(BackgroundSessionKey, BackgroundSessionRecord?)
    /// Append a line to the trace, with the session identifier.
    case trace(BackgroundSessionKey, task: Int?, String)
}
