/*
Abstract:
What the system tells a background session, in order: its tasks, their progress, their files and their ends.
*/

import Foundation

/// One happening in a background session, which the framework turns into a delegate call.
///
/// A session's events reach the process that has it, in the order they happened; events that
/// happened while no process had the session wait for the next one that makes it.
public enum BackgroundSessionEvent: Codable, Sendable, Hashable {
    /// The session is attached; these are its outstanding tasks. Always the first event.
    case attached(tasks: [BackgroundTaskSnapshot])
    /// A transfer continues from an offset (`didResumeAtOffset`).
    case resumed(taskIdentifier: Int, offset: Int64, expectedTotalBytes: Int64)
    /// The task's state, request or response changed (`response` arrived, a redirect, a suspension).
    case updated(BackgroundTaskSnapshot)
    /// Bytes were written (`didWriteData`).
    case wroteData(taskIdentifier: Int, bytesWritten: Int64, totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64)
    /// The file is complete (`didFinishDownloadingTo`); it is deleted once the delegate returns.
    case finishedDownloading(taskIdentifier: Int, file: URL, response: BackgroundTaskResponse)
    /// The task ended, with or without an error (`didCompleteWithError`).
    case completed(BackgroundTaskSnapshot)
    /// The server asked for credentials (`didReceive challenge`); the answer goes back with the id.
    case challenge(taskIdentifier: Int, challengeID: UInt64, ChallengeDescriptor)
    /// Every event that waited for the app has been sent: the session calls
    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)` once the delegate has had them.
    case waitingEventsDelivered
    /// An upload sent bytes of its body (`didSendBodyData`).
    case sentBodyData(taskIdentifier: Int, bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64)
    /// The server's answer to an upload carried a body (`dataTask(_:didReceive:)`), at most
    /// ``maximumUploadResponseBytes``; the task's completion follows.
    case receivedData(taskIdentifier: Int, data: Data)

    /// The most bytes of an upload's response body the system keeps for the app; Apple's
    /// background uploads are for sending, and their answers are meant to be short.
    public static let maximumUploadResponseBytes = 1 << 20
}
