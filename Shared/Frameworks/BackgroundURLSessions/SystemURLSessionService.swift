/*
Abstract:
The background sessions' link to this device's system service: a connection per session, requests over the service's socket, events back.
*/

import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
import ServiceClient
import Synchronization

/// The system side of background sessions in an app process: the device's Background Assets
/// service, which runs the transfers and keeps their events while the app is gone.
///
/// Each session this process makes has a connection of its own to the service, the one the service
/// sends that session's events to; a session made again with the same identifier (here or in
/// another process of the app) takes them over. A connection that drops (the service restarted)
/// connects again at once and makes the session again, so the service's outstanding tasks and the
/// events that waited reach the same session object.
final class SystemURLSessionService: BackgroundURLSessionService {
    static let shared = SystemURLSessionService()

    private let paths: DevicePaths
    private let identity: ProcessIdentity
    private let launcher: ServiceLauncher?
    /// Each session's connection, by identifier.
    private let sessions = Mutex<[String: ServiceConnection]>([:])
    /// For the calls that concern every session of the app.
    private let shared: ServiceConnection

    init(paths: DevicePaths = .current(), identity: ProcessIdentity = .current()) {
        self.paths = paths
        self.identity = identity
        launcher = ServiceLauncher.besideExecutable(paths: paths)
        shared = ServiceConnection(socketPath: paths.serviceSocket.path, hello: identity.hello, launcher: launcher, onEvent: { _ in })
    }

    func attach(_ settings: BackgroundSessionSettings) throws -> AsyncStream<BackgroundSessionEvent> {
        let identifier = settings.identifier
        let (events, continuation) = AsyncStream<BackgroundSessionEvent>.makeStream()
        let connection = ServiceConnection(
            socketPath: paths.serviceSocket.path, hello: identity.hello, launcher: launcher,
            onEvent: { event in
                switch event {
                case let .urlSessionEvent(session, event) where session == identifier: continuation.yield(event)
                case let .urlSessionDetached(session) where session == identifier: continuation.finish()
                default: break
                }
            })
        do {
            _ = try connection.send(.urlSessions(.attachURLSession(settings: settings)))
        } catch {
            connection.disconnect()
            throw Self.refusal(error)
        }
        // A service that restarts knows no attachments: the connection makes the session again.
        connection.replayOnReconnect(.urlSessions(.attachURLSession(settings: settings)))
        let previous = sessions.withLock { sessions in
            defer { sessions[identifier] = connection }
            return sessions[identifier]
        }
        previous?.disconnect()
        continuation.onTermination = { [weak self] _ in
            connection.disconnect()
            self?.sessions.withLock { sessions in
                if sessions[identifier] === connection { sessions[identifier] = nil }
            }
        }
        return events
    }

    func makeDownloadTask(session: String, request: BackgroundTaskRequest) throws -> BackgroundTaskSnapshot {
        try makeTask(.urlSessions(.makeURLSessionTask(session: session, request: request)), session: session)
    }

    func makeDownloadTask(session: String, resumeData: BackgroundResumeData) throws -> BackgroundTaskSnapshot {
        try makeTask(.urlSessions(.makeURLSessionTaskFromResumeData(session: session, resumeData: resumeData.encoded())), session: session)
    }

    @discardableResult
    func perform(_ command: BackgroundTaskCommand, session: String, taskIdentifier: Int) async throws -> Data? {
        let response: ServerResponse
        do {
            response = try await connection(for: session).send(
                .urlSessions(.changeURLSessionTask(session: session, taskIdentifier: taskIdentifier, command: command)))
        } catch {
            throw Self.refusal(error)
        }
        guard case let .resumeData(data) = response else { return nil }
        return data
    }

    func fileHandled(session: String, taskIdentifier: Int) async {
        _ = try? await connection(for: session).send(.urlSessions(.urlSessionFileHandled(session: session, taskIdentifier: taskIdentifier)))
    }

    func answer(_ answer: ChallengeAnswer, challengeID: UInt64, session: String) async {
        _ = try? await connection(for: session).send(.downloads(.answerChallenge(deliveryID: challengeID, answer: answer)))
    }

    func sessionsAwaitingEvents() async throws -> [String] {
        guard case let .urlSessionIdentifiers(sessions) = try await shared.send(.urlSessions(.fetchURLSessionsAwaitingEvents)) else { return [] }
        return sessions
    }

    func finishedHandlingEvents(session: String) async {
        _ = try? await shared.send(.urlSessions(.urlSessionEventsHandled(session: session)))
    }

    func invalidate(session: String, cancellingTasks: Bool) async {
        _ = try? await connection(for: session).send(.urlSessions(.invalidateURLSession(session: session, cancellingTasks: cancellingTasks)))
    }

    private func connection(for session: String) throws -> ServiceConnection {
        guard let connection = sessions.withLock({ $0[session] }) else {
            throw BackgroundSessionError.refused("The background session \(session) is not connected to the system; make it again with "
                + "URLSession(configuration:delegate:delegateQueue:).")
        }
        return connection
    }

    private func makeTask(_ request: ClientRequest, session: String) throws -> BackgroundTaskSnapshot {
        let response: ServerResponse
        do {
            response = try connection(for: session).send(request)
        } catch {
            throw Self.refusal(error)
        }
        guard case let .urlSessionTask(task) = response else {
            throw BackgroundSessionError.refused("The system answered \(response) instead of a task.")
        }
        return task
    }

    /// The service's refusal as the error a background session reports: its words, in `NSURLErrorDomain`.
    private static func refusal(_ error: any Error) -> NSError {
        BackgroundSessionError.refused(error.localizedDescription)
    }
}
