/*
Abstract:
The data and upload tasks a background session hands back: each completes with Apple's reason for refusing it.
*/

import Foundation
import Synchronization

/// What a refused task does on `resume()`: completes once, with the reason, through its completion
/// handler or the session's delegate.
///
/// Apple's background session raises an Objective-C exception here, which stops the app. A Swift
/// method cannot return nothing, so the task exists, the reason goes to standard error at once, and
/// the task completes with it (`NSURLErrorDomain`, code -1) when resumed.
final class TaskRefusal: Sendable {
    let error: NSError
    let completionHandler: (@Sendable (any Error) -> Void)?
    private let reported = Mutex(false)

    /// A refusal Apple announces with an exception: the system's ``BackgroundURLSessionService/warn(_:)``
    /// says the reason now (standard error, for the service's client).
    convenience init(reason: String, service: any BackgroundURLSessionService,
                     completionHandler: (@Sendable (any Error) -> Void)?) {
        self.init(error: BackgroundSessionError.refused(reason), completionHandler: completionHandler)
        service.warn(reason)
    }

    /// A task that cannot run (an unsupported URL, an invalidated session), reported on `resume()` only.
    init(error: NSError, completionHandler: (@Sendable (any Error) -> Void)? = nil) {
        self.error = error
        self.completionHandler = completionHandler
    }

    /// Reports the refusal the first time the task is resumed.
    func report(for task: URLSessionTask, in session: BackgroundURLSession) {
        let first = reported.withLock { reported in
            defer { reported = true }
            return !reported
        }
        guard first else { return }
        if let completionHandler {
            let error = error
            session.onDelegateQueue { completionHandler(error) }
        } else {
            session.deliverCompletion(of: task, error: error)
        }
    }

    var isReported: Bool { reported.withLock { $0 } }
}

/// A data or upload task of a background session, which background sessions here do not support.
///
/// Foundation's upload task is a kind of data task, so one class answers for both: the refused data
/// task is typed `URLSessionDataTask` where it is returned.
final class RefusedDataTask: URLSessionUploadTask, @unchecked Sendable {
    // @unchecked: immutable after init, apart from the refusal's own lock.
    private let request: URLRequest
    private let session: BackgroundURLSession
    private let refusal: TaskRefusal

    init(request: URLRequest, session: BackgroundURLSession, reason: String,
         completionHandler: (@Sendable (any Error) -> Void)? = nil) {
        self.request = request
        self.session = session
        refusal = TaskRefusal(reason: reason, service: session.service, completionHandler: completionHandler)
        super.init()
    }

    override var originalRequest: URLRequest? { request }
    override var currentRequest: URLRequest? { request }
    override var state: URLSessionTask.State { refusal.isReported ? .completed : .suspended }
    override var error: (any Error)? { refusal.isReported ? refusal.error : nil }
    override func resume() { refusal.report(for: self, in: session) }
    override func cancel() { refusal.report(for: self, in: session) }
}
