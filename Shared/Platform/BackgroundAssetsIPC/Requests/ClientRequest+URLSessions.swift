/*
Abstract:
The requests of background URL sessions: a session's connection, its tasks and the events the app handled.
*/

import Foundation

extension ClientRequest {
    /// The requests a background `URLSession` makes for the app or its extension.
    public enum URLSessions: Codable, Sendable, Equatable {
        /// Makes this connection the one that has the app's session with these settings, creating the
        /// session on first use; its events follow as `urlSessionEvent` (app or extension).
        case attachURLSession(settings: BackgroundSessionSettings)
        /// Records a new, suspended download task in one of the app's sessions.
        case makeURLSessionTask(session: String, request: BackgroundTaskRequest)
        /// Records a suspended task that continues from resume data (`downloadTask(withResumeData:)`).
        case makeURLSessionTaskFromResumeData(session: String, resumeData: Data)
        /// Resumes, suspends, cancels or describes a task.
        case changeURLSessionTask(session: String, taskIdentifier: Int, command: BackgroundTaskCommand)
        /// The delegate returned from `didFinishDownloadingTo`: the system forgets the file.
        case urlSessionFileHandled(session: String, taskIdentifier: Int)
        /// Asks which of the app's sessions have events waiting, the ones it was launched for first.
        case fetchURLSessionsAwaitingEvents
        /// The app called the completion handler of `handleEventsForBackgroundURLSession`.
        case urlSessionEventsHandled(session: String)
        /// Invalidates a session, cancelling its tasks or once they have ended.
        case invalidateURLSession(session: String, cancellingTasks: Bool)
    }
}
