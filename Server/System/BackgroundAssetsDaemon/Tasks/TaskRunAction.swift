/*
Abstract:
What the Background Tasks runner asks the service to do: launch an app, hand it a task, expire or end a task, wake again.
*/

import BackgroundAssetsIPC
import Foundation

/// One thing to do, returned by ``TaskRunner``; the service does them in order
/// (`BackgroundAssetsService+TaskRunner`).
enum TaskRunAction: Sendable, Equatable {
    /// Launch the app in the background: its task is ready and no live process of it has the
    /// task's launch handler. The task runs once the app registers it.
    case launchInBackground(app: String)
    /// Hand a pending request to the connection with its launch handler: trace it, take the request
    /// out of the store and record the run (and the refresh), then send `launchTask`.
    case handToConnection(TaskHost.RunningTask)
    /// Start a queued continued-processing request in the app that submitted it: trace it and send `launchTask`.
    case startContinued(TaskHost.RunningTask)
    /// Tell the task's connection to run its expiration handler.
    case expire(TaskHost.RunningTask)
    /// A task ran past its limit and no longer counts as running: trace and log the reason, and
    /// kill the app when the service launched it in the background for its tasks.
    case endedAtDeadline(TaskHost.RunningTask, reason: String, killsApp: Bool)
    /// A task ended because its app's connection closed while it ran.
    case endedWithConnection(TaskHost.RunningTask)
    /// A queued continued-processing request was dropped: its app exited while it waited.
    case droppedQueued(ContinuedProcessingQueue.Entry)
    /// End the app's background launch if nothing of it runs any more.
    case endBackgroundLaunchIfIdle(app: String)
    /// What decides when tasks run changed: evaluate the pending requests again.
    case reconsider
    /// Look again no later than this real time: a held task may become ready, or a running task
    /// is due to expire or end.
    case wake(at: Date)
}
