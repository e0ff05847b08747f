/*
Abstract:
Making a background session's tasks, listing them, and refusing what background sessions do not support.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundURLSession {
    /// A download task for a request; a request the system cannot run (not http or https, not GET)
    /// gives a task that completes with the reason when resumed, as Foundation reports an unsupported URL.
    func makeDownloadTask(with request: URLRequest) -> URLSessionDownloadTask {
        let described = BackgroundTaskRequest(request, additionalHeaders: additionalHeaders)
        if let refusal = unusable() ?? described.refusal.map(BackgroundSessionError.refused) {
            return refusedTask(described, refusal)
        }
        do {
            return register(try service.makeDownloadTask(session: settings.identifier, request: described))
        } catch {
            return refusedTask(described, BackgroundSessionError.refused(Self.reason(error)))
        }
    }

    /// A download task that continues from resume data.
    func makeDownloadTask(withResumeData resumeData: Data) -> URLSessionDownloadTask {
        let placeholder = BackgroundTaskRequest(url: URL(fileURLWithPath: "/"))
        if let refusal = unusable() { return refusedTask(placeholder, refusal) }
        do {
            let decoded = try BackgroundResumeData(decoding: resumeData)
            return register(try service.makeDownloadTask(session: settings.identifier, resumeData: decoded))
        } catch {
            return refusedTask(placeholder, BackgroundSessionError.refused(Self.reason(error)))
        }
    }

    /// Hands the session's tasks that have not completed to `completionHandler` on the delegate queue,
    /// once the system's list has arrived and the task changes queued before have reached the system.
    func listTasks(_ completionHandler: @escaping @Sendable ([BackgroundDownloadTask]) -> Void) {
        whenAttached { [self] in
            // After the changes the app made before asking, as Apple's list reflects them.
            commands.afterQueuedCommands { [self] in
                let tasks = registry.withLock { $0.tasks.values.sorted { $0.taskIdentifier < $1.taskIdentifier } }
                onDelegateQueue { completionHandler(tasks) }
            }
        }
    }

    /// An error's sentence: the system's refusals are `NSError`s, resume data's problems say themselves.
    private static func reason(_ error: any Error) -> String {
        error is BackgroundResumeDataError ? "\(error)" : error.localizedDescription
    }

    private func unusable() -> NSError? {
        if let attachFailure { return BackgroundSessionError.refused(attachFailure.localizedDescription) }
        return registry.withLock { $0.isInvalidated || $0.isFinishing } ? BackgroundSessionError.invalidated : nil
    }

    private func register(_ snapshot: BackgroundTaskSnapshot) -> BackgroundDownloadTask {
        registry.withLock { registry in
            if let existing = registry.tasks[snapshot.taskIdentifier] { return existing }
            let task = BackgroundDownloadTask(snapshot: snapshot, session: self)
            registry.tasks[snapshot.taskIdentifier] = task
            return task
        }
    }

    private func refusedTask(_ request: BackgroundTaskRequest, _ refusal: NSError) -> BackgroundDownloadTask {
        BackgroundDownloadTask(snapshot: BackgroundTaskSnapshot(taskIdentifier: 0, request: request), session: self,
                               refusal: TaskRefusal(error: refusal))
    }

    // MARK: - Refused by background sessions

    /// A download task with a completion handler, which background sessions refuse.
    func refusedWithHandler(
        _ request: BackgroundTaskRequest, _ handler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDownloadTask {
        let refusal = TaskRefusal(reason: BackgroundSessionError.Reason.completionHandlers, service: service,
                                  completionHandler: { handler(nil, nil, $0) })
        return BackgroundDownloadTask(snapshot: BackgroundTaskSnapshot(taskIdentifier: 0, request: request), session: self,
                                      refusal: refusal)
    }
}

extension BackgroundTaskRequest {
    /// The parts of Foundation's request a background transfer sends.
    init(_ request: URLRequest) {
        self.init(url: request.url ?? URL(fileURLWithPath: "/"), httpMethod: request.httpMethod ?? "GET",
                  headers: request.allHTTPHeaderFields ?? [:])
    }

    /// The request with the session's additional header fields, as Foundation sends them: a field
    /// the request sets itself (in any case) keeps the request's value.
    init(_ request: URLRequest, additionalHeaders: [String: String]) {
        self.init(request)
        let own = Set(headers.keys.map { $0.lowercased() })
        for (name, value) in additionalHeaders where !own.contains(name.lowercased()) {
            headers[name] = value
        }
    }
}
