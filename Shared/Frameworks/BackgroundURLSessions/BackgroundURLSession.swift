/*
Abstract:
The system's background session: Foundation's URLSession whose tasks run in the system service and outlive the app.
*/

import BackgroundAssetsIPC
import Foundation
import FoundationNetworking
import Synchronization

/// A background session: the `URLSession` that `URLSession(configuration:delegate:delegateQueue:)`
/// returns for a configuration from `URLSessionConfiguration.background(withIdentifier:)`.
///
/// Its download tasks belong to the system: they continue after the app exits or is killed, and a
/// process that makes a session with the same identifier gets the outstanding ones back
/// (`getAllTasks(completionHandler:)`) with the events that happened meanwhile. The delegate is
/// Foundation's: `URLSessionDownloadDelegate` receives `didFinishDownloadingTo` (the file is deleted
/// when the method returns), `didWriteData` and `didResumeAtOffset`, and `URLSessionTaskDelegate`
/// `didCompleteWithError`, with resume data in the error's user info when the transfer can continue.
/// Upload tasks from a file send it the same way: `didSendBodyData`, the answer's body in
/// `URLSessionDataDelegate`'s `didReceive data`, then `didCompleteWithError`. As on Apple platforms,
/// background sessions support download tasks and upload tasks from a file, with a delegate only:
/// data tasks, uploads from data or a stream, and tasks with a completion handler are refused with
/// Apple's reason.
open class BackgroundURLSession: URLSession, @unchecked Sendable {
    // @unchecked: URLSession is itself @unchecked Sendable; the state added here is behind a lock,
    // and the service and settings are immutable.
    struct Registry {
        /// This process's objects for the session's tasks that have not completed.
        var tasks: [Int: any BackgroundSessionTask] = [:]
        /// Whether the system's list of outstanding tasks has arrived.
        var isAttached = false
        /// Calls waiting for that list.
        var attachWaiters: [@Sendable () -> Void] = []
        /// Set by `finishTasksAndInvalidate()`: the session ends once its tasks have.
        var isFinishing = false
        /// Set once the session is invalid; no task can be made.
        var isInvalidated = false
    }

    let service: any BackgroundURLSessionService
    /// The session's settings, as sent to the system.
    let settings: BackgroundSessionSettings
    /// The configuration's `httpAdditionalHeaders`, which every task's request carries unless it
    /// sets the field itself.
    let additionalHeaders: [String: String]
    let registry = Mutex(Registry())
    /// Sends the app's changes to tasks to the system, in the order the app made them.
    let commands: TaskCommandQueue
    /// Why the system refused the session, if it did; every task then fails with it.
    let attachFailure: (any Error)?
    /// Reads the system's events for the session until it is invalidated.
    private let pump = Mutex<Task<Void, Never>?>(nil)

    /// Creates a session on a system.
    /// - Parameters:
    ///   - configuration: The background configuration.
    ///   - delegate: The session's delegate.
    ///   - queue: The delegate's queue, or `nil` for a serial one.
    ///   - service: The system: the service's client, or an in-memory system in tests.
    package init(configuration: BackgroundURLSessionConfiguration, delegate: (any FoundationNetworking.URLSessionDelegate)?,
                 delegateQueue queue: OperationQueue?, service: any BackgroundURLSessionService) {
        self.service = service
        settings = configuration.settings
        additionalHeaders = configuration.additionalHeaderFields
        commands = TaskCommandQueue(service: service, session: configuration.settings.identifier)
        let events: AsyncStream<BackgroundSessionEvent>?
        if let refusal = settings.refusal {
            events = nil
            attachFailure = BackgroundSessionError.refused(refusal)
        } else {
            do {
                events = try service.attach(configuration.settings)
                attachFailure = nil
            } catch {
                events = nil
                attachFailure = error
            }
        }
        super.init(configuration: configuration, delegate: delegate, delegateQueue: queue)
        if let events {
            pump.withLock { $0 = Task { [weak self] in await self?.receive(events) } }
        } else {
            // Nothing will attach: answer waiting calls at once.
            markAttached(with: [])
            if let attachFailure { service.warn("\(attachFailure.localizedDescription)") }
        }
    }

    deinit {
        pump.withLock { $0?.cancel() }
        commands.finish()
    }

    /// The session's identifier, as the system knows it.
    public var backgroundIdentifier: String { settings.identifier }

    // MARK: - Tasks

    /// Creates a download task for a URL; the system starts it once you call `resume()`.
    open override func downloadTask(with url: URL) -> URLSessionDownloadTask {
        makeDownloadTask(with: URLRequest(url: url))
    }

    /// Creates a download task for a request; the system starts it once you call `resume()`.
    open override func downloadTask(with request: URLRequest) -> URLSessionDownloadTask {
        makeDownloadTask(with: request)
    }

    /// Creates an upload task that sends a file; the system copies the file now and sends it once
    /// you call `resume()`, also after the app exits.
    open override func uploadTask(with request: URLRequest, fromFile fileURL: URL) -> URLSessionUploadTask {
        makeUploadTask(with: request, fromFile: fileURL)
    }

    /// Creates a download task that continues from resume data, at the offset where it stopped.
    open override func downloadTask(withResumeData resumeData: Data) -> URLSessionDownloadTask {
        makeDownloadTask(withResumeData: resumeData)
    }

    /// The session's tasks that have not completed, including those an earlier process of the app
    /// made; the handler runs on the delegate queue.
    open override func getAllTasks(completionHandler: @escaping @Sendable ([URLSessionTask]) -> Void) {
        listTasks { completionHandler($0) }
    }

    /// The session's tasks by kind; a background session has upload and download tasks.
    open override func getTasksWithCompletionHandler(
        _ completionHandler: @escaping @Sendable ([URLSessionDataTask], [URLSessionUploadTask], [URLSessionDownloadTask]) -> Void
    ) {
        listTasks { tasks in
            completionHandler([], tasks.compactMap { $0 as? URLSessionUploadTask }, tasks.compactMap { $0 as? URLSessionDownloadTask })
        }
    }

    // MARK: - Invalidation

    /// Cancels the session's outstanding tasks and invalidates the session.
    ///
    /// The tasks' cancellations reach the delegate (`didCompleteWithError` with `NSURLErrorCancelled`),
    /// then `urlSession(_:didBecomeInvalidWithError:)`. A session made later with the same identifier
    /// starts empty.
    open override func invalidateAndCancel() {
        cancelTasksAndInvalidate()
    }

    /// Invalidates the session once its outstanding tasks have ended; no task can be made meanwhile.
    /// The system still runs the tasks if the app exits first.
    open override func finishTasksAndInvalidate() {
        invalidateWhenTasksEnd()
    }

    // MARK: - Refused by background sessions

    open override func dataTask(with request: URLRequest) -> URLSessionDataTask {
        RefusedDataTask(request: request, session: self, reason: BackgroundSessionError.Reason.dataTasks)
    }

    open override func dataTask(with url: URL) -> URLSessionDataTask {
        dataTask(with: URLRequest(url: url))
    }

    open override func dataTask(
        with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask {
        RefusedDataTask(request: request, session: self, reason: BackgroundSessionError.Reason.completionHandlers,
                        completionHandler: { completionHandler(nil, nil, $0) })
    }

    open override func dataTask(
        with url: URL, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask {
        dataTask(with: URLRequest(url: url), completionHandler: completionHandler)
    }

    open override func downloadTask(
        with request: URLRequest, completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDownloadTask {
        refusedWithHandler(BackgroundTaskRequest(request), completionHandler)
    }

    open override func downloadTask(
        with url: URL, completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDownloadTask {
        refusedWithHandler(BackgroundTaskRequest(url: url), completionHandler)
    }

    open override func downloadTask(
        withResumeData resumeData: Data, completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDownloadTask {
        refusedWithHandler(BackgroundTaskRequest(url: URL(fileURLWithPath: "/")), completionHandler)
    }

    open override func uploadTask(with request: URLRequest, from bodyData: Data) -> URLSessionUploadTask {
        RefusedDataTask(request: request, session: self, reason: BackgroundSessionError.Reason.uploadsFromData)
    }

    open override func uploadTask(withStreamedRequest request: URLRequest) -> URLSessionUploadTask {
        RefusedDataTask(request: request, session: self, reason: BackgroundSessionError.Reason.streamedUploads)
    }

    open override func uploadTask(
        with request: URLRequest, fromFile fileURL: URL,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionUploadTask {
        RefusedDataTask(request: request, session: self, reason: BackgroundSessionError.Reason.completionHandlers,
                        completionHandler: { completionHandler(nil, nil, $0) })
    }

    /// Runs `body` once the system's list of outstanding tasks has arrived.
    func whenAttached(_ body: @escaping @Sendable () -> Void) {
        let now = registry.withLock { registry -> Bool in
            if registry.isAttached { return true }
            registry.attachWaiters.append(body)
            return false
        }
        if now { body() }
    }

    /// Records the outstanding tasks and releases the calls that waited for them.
    func markAttached(with snapshots: [BackgroundTaskSnapshot]) {
        let waiters = registry.withLock { registry -> [@Sendable () -> Void] in
            for snapshot in snapshots where snapshot.state != .completed {
                if let task = registry.tasks[snapshot.taskIdentifier] {
                    task.core.apply(snapshot)
                } else {
                    registry.tasks[snapshot.taskIdentifier] = makeTaskObject(snapshot)
                }
            }
            registry.isAttached = true
            defer { registry.attachWaiters = [] }
            return registry.attachWaiters
        }
        waiters.forEach { $0() }
    }

    /// The task object of an identifier, if the session has it.
    func task(_ identifier: Int) -> (any BackgroundSessionTask)? {
        registry.withLock { $0.tasks[identifier] }
    }

    /// Runs `body` on the delegate queue, as Foundation runs every delegate method.
    func onDelegateQueue(_ body: @escaping @Sendable () -> Void) {
        delegateQueue.addOperation(body)
    }

    /// Stops reading events; the session is invalid from here on.
    func stopReceiving() {
        pump.withLock { $0?.cancel() }
        commands.finish()
    }
}
