/*
Abstract:
The background sessions' link to this device's system service, which does not serve them yet.
*/

import BackgroundAssetsIPC
import Foundation

/// The system side of background sessions in an app process.
///
/// - Note: The service's background-session subsystem (`Server/System/BackgroundAssetsDaemon/URLSessions/`)
///   is not yet reachable over the service's socket. Until it is, attaching a session fails with an
///   error that says so, and each task of the session completes with it when resumed; nothing runs
///   in the app's process behind the app's back.
struct SystemURLSessionService: BackgroundURLSessionService {
    static let shared = SystemURLSessionService()

    func attach(_ settings: BackgroundSessionSettings) throws -> AsyncStream<BackgroundSessionEvent> {
        throw unavailable("making the background session \(settings.identifier)")
    }

    func makeDownloadTask(session: String, request: BackgroundTaskRequest) throws -> BackgroundTaskSnapshot {
        throw unavailable("downloading \(request.url.absoluteString) in the background session \(session)")
    }

    func makeDownloadTask(session: String, resumeData: BackgroundResumeData) throws -> BackgroundTaskSnapshot {
        throw unavailable("resuming \(resumeData.request.url.absoluteString) in the background session \(session)")
    }

    func perform(_ command: BackgroundTaskCommand, session: String, taskIdentifier: Int) async throws -> Data? {
        throw unavailable("changing task \(taskIdentifier) of the background session \(session)")
    }

    func fileHandled(session: String, taskIdentifier: Int) async {}

    func answer(_ answer: ChallengeAnswer, challengeID: UInt64, session: String) async {}

    func sessionsAwaitingEvents() async throws -> [String] { [] }

    func finishedHandlingEvents(session: String) async {}

    func invalidate(session: String, cancellingTasks: Bool) async {}

    private func unavailable(_ what: String) -> NSError {
        BackgroundSessionError.refused(
            "The Background Assets service of this device does not run background URL sessions yet, so \(what) "
                + "is not possible. Download with BADownloadManager, or with a default URLSession while the app runs.")
    }
}
