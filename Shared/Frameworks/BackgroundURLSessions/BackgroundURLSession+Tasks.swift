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
            return downloadTask(refusedTask(described, refusal))
        }
        do {
            return downloadTask(register(try service.makeDownloadTask(session: settings.identifier, request: described)))
        } catch {
            return downloadTask(refusedTask(described, BackgroundSessionError.refused(Self.reason(error))))
        }
    }

    /// The task as a download task; the registry makes download tasks for requests without a file.
    private func downloadTask(_ task: any BackgroundSessionTask) -> URLSessionDownloadTask {
        task as? URLSessionDownloadTask ?? BackgroundDownloadTask(
            snapshot: task.core.snapshot, session: self,
            refusal: TaskRefusal(error: BackgroundSessionError.refused("The system made no download task.")))
    }

    /// An upload task that sends a file; a request the system cannot send (not http or https, a
    /// method without a body) gives a task that completes with the reason when resumed.
    func makeUploadTask(with request: URLRequest, fromFile fileURL: URL) -> URLSessionUploadTask {
        var described = BackgroundTaskRequest(request, additionalHeaders: additionalHeaders)
        // Foundation's default method is GET, which has no body; an upload's is POST, as Apple's.
        if request.httpMethod == nil || request.httpMethod == "GET" { described.httpMethod = "POST" }
        described.bodyFile = fileURL.standardizedFileURL
        let task: any BackgroundSessionTask
        if let refusal = unusable() ?? described.refusal.map(BackgroundSessionError.refused) {
            task = refusedTask(described, refusal)
        } else {
            do {
                task = register(try service.makeDownloadTask(session: settings.identifier, request: described))
            } catch {
                task = refusedTask(described, BackgroundSessionError.refused(Self.reason(error)))
            }
        }
        // The registry makes upload tasks for requests with a file.
        return task as? URLSessionUploadTask ?? RefusedDataTask(request: request, session: self, reason: "The system made no upload task.")
    }

    /// A download task that continues from resume data.
    func makeDownloadTask(withResumeData resumeData: Data) -> URLSessionDownloadTask {
        let placeholder = BackgroundTaskRequest(url: URL(fileURLWithPath: "/"))
        if let refusal = unusable() { return downloadTask(refusedTask(placeholder, refusal)) }
        do {
            let decoded = try BackgroundResumeData(decoding: resumeData)
            return downloadTask(register(try service.makeDownloadTask(session: settings.identifier, resumeData: decoded)))
        } catch {
            return downloadTask(refusedTask(placeholder, BackgroundSessionError.refused(Self.reason(error))))
        }
    }

    /// Hands the session's tasks that have not completed to `completionHandler` on the delegate queue,
    /// once the system's list has arrived and the task changes queued before have reached the system.
    func listTasks(_ completionHandler: @escaping @Sendable ([any BackgroundSessionTask]) -> Void) {
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

    private func register(_ snapshot: BackgroundTaskSnapshot) -> any BackgroundSessionTask {
        registry.withLock { registry in
            if let existing = registry.tasks[snapshot.taskIdentifier] { return existing }
            let task = makeTaskObject(snapshot)
            registry.tasks[snapshot.taskIdentifier] = task
            return task
        }
    }

    /// This process's object for a task: an upload task for a request with a file, else a download task.
    func makeTaskObject(_ snapshot: BackgroundTaskSnapshot, refusal: TaskRefusal? = nil) -> any BackgroundSessionTask {
        snapshot.originalRequest.isUpload
            ? BackgroundUploadTask(snapshot: snapshot, session: self, refusal: refusal)
            : BackgroundDownloadTask(snapshot: snapshot, session: self, refusal: refusal)
    }

    private func refusedTask(_ request: BackgroundTaskRequest, _ refusal: NSError) -> any BackgroundSessionTask {
        makeTaskObject(BackgroundTaskSnapshot(taskIdentifier: 0, request: request), refusal: TaskRefusal(error: refusal))
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
