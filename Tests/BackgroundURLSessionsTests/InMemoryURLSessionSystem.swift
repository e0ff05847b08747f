/*
Abstract:
An in-memory system for the background sessions' tests: per-app sessions that outlive a client, events on demand.
*/

import BackgroundAssetsIPC
@testable import BackgroundURLSessions
import Foundation
import Synchronization
import TestSupport

/// Plays the system for ``BackgroundURLSession``: it keeps each app's sessions, tasks and waiting
/// events, whichever client (process) comes and goes, and lets a test move transfers along.
final class InMemoryURLSessionSystem: Sendable {
    struct Session {
        var settings: BackgroundSessionSettings
        var tasks: [Int: BackgroundTaskSnapshot] = [:]
        var nextIdentifier = 1
        var waiting: [BackgroundSessionEvent] = []
        var listener: AsyncStream<BackgroundSessionEvent>.Continuation?
        var launchedForEvents = false
        var handledFiles: [Int] = []
        var commands: [(Int, BackgroundTaskCommand)] = []
    }

    private let sessions = Mutex<[String: Session]>([:])
    private let finishedHandling = Mutex<[String]>([])
    private let warningLines = Mutex<[String]>([])
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "background-sessions")
    }

    /// The client of one app's process.
    func client(app: String) -> Client {
        Client(system: self, app: app)
    }

    private func key(_ app: String, _ session: String) -> String { "\(app)\u{0}\(session)" }

    func with<T>(_ app: String, _ session: String, _ body: (inout Session) throws -> T) rethrows -> T? {
        try sessions.withLock { sessions in
            guard var value = sessions[key(app, session)] else { return nil }
            defer { sessions[key(app, session)] = value }
            return try body(&value)
        }
    }

    /// Sends an event to the process that has the session, or keeps it for the next one.
    func send(_ event: BackgroundSessionEvent, app: String, session: String) {
        with(app, session) { session in
            if let listener = session.listener, case .enqueued = listener.yield(event) { return }
            session.listener = nil
            session.waiting.append(event)
        }
    }

    // MARK: - What a test does as the system

    /// A task's transfer begins and writes `bytes` of `total`.
    func progress(app: String, session: String, task: Int, written: Int64, total: Int64) {
        with(app, session) { $0.tasks[task]?.countOfBytesReceived = written; $0.tasks[task]?.countOfBytesExpectedToReceive = total }
        send(.wroteData(taskIdentifier: task, bytesWritten: written, totalBytesWritten: written, totalBytesExpectedToWrite: total),
             app: app, session: session)
    }

    /// A task's file is complete: it is written, handed over, and the task completes.
    func finish(app: String, session: String, task: Int, contents: String) throws -> URL {
        let file = directory.url.appending(path: "\(app)-\(session)-\(task).tmp")
        try Data(contents.utf8).write(to: file)
        let url = with(app, session) { $0.tasks[task]?.currentRequest.url } ?? nil
        let response = BackgroundTaskResponse(url: url ?? file, statusCode: 200, headers: ["Content-Length": "\(contents.utf8.count)"])
        send(.finishedDownloading(taskIdentifier: task, file: file, response: response), app: app, session: session)
        complete(app: app, session: session, task: task, failure: nil)
        return file
    }

    /// A task ends, with a failure or none.
    func complete(app: String, session: String, task: Int, failure: BackgroundTaskFailure?) {
        let snapshot = with(app, session) { session -> BackgroundTaskSnapshot? in
            guard var snapshot = session.tasks.removeValue(forKey: task) else { return nil }
            snapshot.state = .completed
            snapshot.failure = failure
            return snapshot
        } ?? nil
        if let snapshot { send(.completed(snapshot), app: app, session: session) }
    }

    /// The app was launched for the session's events: the next attachment gets the marker after them.
    func launchForEvents(app: String, session: String) {
        with(app, session) { $0.launchedForEvents = true }
    }

    /// The sessions whose handler the app called.
    var handledSessions: [String] { finishedHandling.withLock { $0 } }

    /// The files the app's processes have finished with.
    func handledFiles(app: String, session: String) -> [Int] { with(app, session) { $0.handledFiles } ?? [] }

    /// The commands the app sent for a session, in order.
    func commands(app: String, session: String) -> [(Int, BackgroundTaskCommand)] {
        with(app, session) { $0.commands } ?? []
    }

    /// What the sessions said where Apple's framework raises an exception or logs, in order; a real
    /// app's client writes these lines to standard error.
    var warnings: [String] { warningLines.withLock { $0 } }

    /// The outstanding tasks of a session, by identifier.
    func tasks(app: String, session: String) -> [Int: BackgroundTaskSnapshot] {
        with(app, session) { $0.tasks } ?? [:]
    }

    /// One app process's view of the system.
    struct Client: BackgroundURLSessionService {
        let system: InMemoryURLSessionSystem
        let app: String

        func attach(_ settings: BackgroundSessionSettings) throws -> AsyncStream<BackgroundSessionEvent> {
            let (stream, continuation) = AsyncStream<BackgroundSessionEvent>.makeStream()
            system.sessions.withLock { sessions in
                let key = system.key(app, settings.identifier)
                var session = sessions[key] ?? Session(settings: settings)
                session.settings = settings
                session.listener?.finish()
                // A task is outstanding until the app has received its completion.
                let undelivered = session.waiting.compactMap { event -> BackgroundTaskSnapshot? in
                    guard case var .completed(snapshot) = event else { return nil }
                    snapshot.state = .running
                    snapshot.failure = nil
                    return snapshot
                }
                let outstanding = (Array(session.tasks.values) + undelivered).sorted { $0.taskIdentifier < $1.taskIdentifier }
                continuation.yield(.attached(tasks: outstanding))
                session.waiting.forEach { continuation.yield($0) }
                session.waiting = []
                if session.launchedForEvents {
                    continuation.yield(.waitingEventsDelivered)
                    session.launchedForEvents = false
                }
                session.listener = continuation
                sessions[key] = session
            }
            return stream
        }

        func makeDownloadTask(session: String, request: BackgroundTaskRequest) throws -> BackgroundTaskSnapshot {
            let made = system.with(app, session) { session in
                let snapshot = BackgroundTaskSnapshot(taskIdentifier: session.nextIdentifier, request: request)
                session.nextIdentifier += 1
                session.tasks[snapshot.taskIdentifier] = snapshot
                return snapshot
            }
            guard let made else { throw BackgroundSessionError.refused("The session \(session) is not attached.") }
            return made
        }

        func makeDownloadTask(session: String, resumeData: BackgroundResumeData) throws -> BackgroundTaskSnapshot {
            guard resumeData.sessionIdentifier == session else {
                throw BackgroundSessionError.refused("The resume data belongs to the session \(resumeData.sessionIdentifier).")
            }
            var snapshot = try makeDownloadTask(session: session, request: resumeData.request)
            snapshot.countOfBytesReceived = resumeData.bytesReceived
            let resumed = snapshot
            system.with(app, session) { $0.tasks[resumed.taskIdentifier] = resumed }
            return snapshot
        }

        func perform(_ command: BackgroundTaskCommand, session: String, taskIdentifier: Int) async throws -> Data? {
            let snapshot = system.with(app, session) { session -> BackgroundTaskSnapshot? in
                session.commands.append((taskIdentifier, command))
                switch command {
                case .resume: session.tasks[taskIdentifier]?.state = .running
                case .suspend: session.tasks[taskIdentifier]?.state = .suspended
                case let .describe(text): session.tasks[taskIdentifier]?.taskDescription = text
                case .cancel, .cancelProducingResumeData: break
                }
                return session.tasks[taskIdentifier]
            } ?? nil
            guard let snapshot else { return nil }
            switch command {
            case .cancel:
                system.complete(app: app, session: session, task: taskIdentifier, failure: .cancelled())
            case .cancelProducingResumeData:
                let data = BackgroundResumeData(
                    sessionIdentifier: session, request: snapshot.originalRequest, bytesReceived: snapshot.countOfBytesReceived,
                    entityTag: "\"v1\"", partialFileName: "\(taskIdentifier).part").encoded()
                system.complete(app: app, session: session, task: taskIdentifier, failure: .cancelled(resumeData: data))
                return data
            default: break
            }
            return nil
        }

        func fileHandled(session: String, taskIdentifier: Int) async {
            system.with(app, session) { $0.handledFiles.append(taskIdentifier) }
        }

        func answer(_ answer: ChallengeAnswer, challengeID: UInt64, session: String) async {}

        func sessionsAwaitingEvents() async throws -> [String] {
            system.sessions.withLock { sessions in
                sessions.filter { $0.key.hasPrefix("\(app)\u{0}") && $0.value.launchedForEvents }
                    .map(\.value.settings.identifier).sorted()
            }
        }

        func finishedHandlingEvents(session: String) async {
            system.finishedHandling.withLock { $0.append("\(app)/\(session)") }
        }

        func invalidate(session: String, cancellingTasks: Bool) async {
            guard cancellingTasks else { return }
            for task in system.tasks(app: app, session: session).keys.sorted() {
                system.complete(app: app, session: session, task: task, failure: .cancelled())
            }
            system.with(app, session) { $0.listener?.finish() }
        }

        func warn(_ message: String) {
            system.warningLines.withLock { $0.append(message) }
        }
    }
}
