/*
Abstract:
What the background-session state asks the service to do: transfers in the queue, events, files, launches, records.
*/

import BackgroundAssetsIPC
import Foundation

/// One thing to do, returned by ``BackgroundSessionState``; the host does them in order.
public enum BackgroundSessionAction: Sendable, Equatable {
    /// Start a task's transfer in the shared queue (``BackgroundSessionPolicy/queueIdentifier(for:task:)``),
    /// not before a date, once the device meets a discretionary session's conditions, continuing from
    /// the partial file resume data names when there is one.
    case scheduleTransfer(BackgroundSessionKey, task: Int, request: BackgroundTaskRequest, notBefore: Date?,
                          discretionary: Bool, resumingFrom: Data?)
    /// Stop a transfer and keep its partial file: the host answers with ``BackgroundSessionState/suspended(task:key:resumeData:)``.
    case pauseTransfer(BackgroundSessionKey, task: Int)
    /// Remove a transfer from the queue. With `keepPartialFile`, its partial file is kept and the host
    /// answers with ``BackgroundSessionState/cancelledKeepingPartialFile(task:key:resumeData:)``.
    case cancelTransfer(BackgroundSessionKey, task: Int, keepPartialFile: Bool)
    /// Send an event to the connection that has the session.
    case send(connection: UInt64, BackgroundSessionKey, BackgroundSessionEvent)
    /// End an attachment's event stream: another process took the session over, or it was invalidated.
    case finishStream(connection: UInt64, BackgroundSessionKey)
    /// Launch the installed app in the background for the session's events, as for Background Tasks.
    case launchApp(bundleIdentifier: String, session: String)
    /// End the app's background launch if nothing else keeps it (no task, no session events).
    case endBackgroundLaunchIfIdle(bundleIdentifier: String)
    /// Delete a handed-over file the app will never receive.
    case removeFile(URL)
    /// Delete the partial file resume data names, which nothing will continue from.
    case removePartialFile(bundleIdentifier: String, resumeData: Data)
    /// Write the session's record (``BackgroundSessionStore/save(_:_:)``), or delete it when `nil`.
    case persist(BackgroundSessionKey, BackgroundSessionRecord?)
    /// Append a line to the trace, with the session identifier: by default something the app did;
    /// what the system kept for an app with nobody to receive it goes from the service to nobody.
    case trace(BackgroundSessionKey, task: Int?, event: String, detail: String?, from: String = "app", to: String = "backgroundassetsd")
}
