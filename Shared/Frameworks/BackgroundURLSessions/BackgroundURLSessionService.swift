/*
Abstract:
What a background session asks of the system, as a protocol: the service's client, or an in-memory system in tests.
*/

import BackgroundAssetsIPC
import Foundation

/// The system side of ``BackgroundURLSession``: where the transfers of an app's background sessions
/// run, outlive the app's process, and wait for it with their events.
///
/// The session object keeps the rules that are Foundation's (task objects, their state, the delegate
/// calls and their order, files deleted once `didFinishDownloadingTo` returns); everything that must
/// outlive the process goes through this protocol. The app is the caller's: an implementation never
/// shows one app another's sessions.
package protocol BackgroundURLSessionService: Sendable {
    /// Attaches this process to the app's session with these settings, creating it on first use.
    ///
    /// The stream opens with ``BackgroundSessionEvent/attached(tasks:)``, listing every task whose
    /// completion the app has not received (a task that ended while no process had the session is
    /// still listed, as running, until its completion is delivered), then the events that waited
    /// for the app, then ``BackgroundSessionEvent/waitingEventsDelivered`` when the system launched
    /// the app for them, then events as they happen. A later attachment of the same session takes its
    /// events over, and this stream finishes.
    /// - Throws: An error when the system refuses the session (a bad identifier, an app group the app
    ///   is not in).
    func attach(_ settings: BackgroundSessionSettings) throws -> AsyncStream<BackgroundSessionEvent>

    /// Records a new, suspended download task and gives it an identifier unique in the session.
    /// Synchronous, because `downloadTask(with:)` returns the task with its identifier.
    func makeDownloadTask(session: String, request: BackgroundTaskRequest) throws -> BackgroundTaskSnapshot

    /// Records a suspended task that continues from resume data, the partial file kept by the system.
    /// - Throws: An error when the data names no partial file of this app's session.
    func makeDownloadTask(session: String, resumeData: BackgroundResumeData) throws -> BackgroundTaskSnapshot

    /// Changes a task: resumes, suspends, cancels, or records what the app set on it.
    /// - Returns: The resume data, for ``BackgroundTaskCommand/cancelProducingResumeData``.
    @discardableResult
    func perform(_ command: BackgroundTaskCommand, session: String, taskIdentifier: Int) async throws -> Data?

    /// The delegate has returned from `didFinishDownloadingTo`; the system forgets the file.
    func fileHandled(session: String, taskIdentifier: Int) async

    /// Answers a challenge of ``BackgroundSessionEvent/challenge(taskIdentifier:challengeID:_:)``.
    func answer(_ answer: ChallengeAnswer, challengeID: UInt64, session: String) async

    /// The identifiers of the app's sessions whose events wait for it, the ones the system launched
    /// it for first.
    func sessionsAwaitingEvents() async throws -> [String]

    /// The app called the completion handler of `handleEventsForBackgroundURLSession`: the system may
    /// end a background launch that has nothing left to do.
    func finishedHandlingEvents(session: String) async

    /// Ends the session: with `cancellingTasks`, its tasks are cancelled, their completions sent and
    /// the attachment's stream finished; otherwise the system ends the session once its tasks have
    /// ended, and makes no task for it meanwhile.
    func invalidate(session: String, cancellingTasks: Bool) async

    /// Says what the session refused or could not do, where Apple's framework raises an exception or
    /// logs; the default writes the line to standard error.
    func warn(_ message: String)
}

extension BackgroundURLSessionService {
    /// Writes the line to standard error, as Foundation logs what it refuses.
    package func warn(_ message: String) {
        FileHandle.standardError.write(Data("BackgroundURLSessions: \(message)\n".utf8))
    }
}
