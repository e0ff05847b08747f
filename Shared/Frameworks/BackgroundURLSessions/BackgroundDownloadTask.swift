/*
Abstract:
A background session's download task: Foundation's URLSessionDownloadTask whose state the system keeps.
*/

import BackgroundAssetsIPC
import Foundation
import FoundationFixes

/// A download task of a ``BackgroundURLSession``.
///
/// Its properties read the system's last report: `state`, `response`, `countOfBytesReceived`,
/// `countOfBytesExpectedToReceive`, `error`. `resume()`, `suspend()`, `cancel()` and
/// `cancel(byProducingResumeData:)` ask the system, which does the transfer.
open class BackgroundDownloadTask: URLSessionDownloadTask, BackgroundSessionTask, EarliestBeginDateKeeping,
    @unchecked Sendable
{
    // @unchecked: URLSessionTask is itself @unchecked Sendable; the state added here is the core's, behind its lock.
    let core: BackgroundTaskCore

    init(snapshot: BackgroundTaskSnapshot, session: BackgroundURLSession, refusal: TaskRefusal? = nil) {
        core = BackgroundTaskCore(snapshot: snapshot, session: session, refusal: refusal)
        super.init()
        super.countOfBytesClientExpectsToReceive = snapshot.countOfBytesClientExpectsToReceive
    }

    open override var taskIdentifier: Int { core.snapshot.taskIdentifier }
    open override var originalRequest: URLRequest? { URLRequest(core.snapshot.originalRequest) }
    open override var currentRequest: URLRequest? { URLRequest(core.snapshot.currentRequest) }
    open override var response: URLResponse? { core.snapshot.response.flatMap(HTTPURLResponse.init) }
    open override var countOfBytesReceived: Int64 { core.snapshot.countOfBytesReceived }
    open override var countOfBytesExpectedToReceive: Int64 { core.snapshot.countOfBytesExpectedToReceive }
    open override var state: URLSessionTask.State { core.state }
    open override var error: (any Error)? { core.error }
    open override var progress: Progress { core.progress }

    open override var taskDescription: String? {
        get { core.taskDescription }
        set { core.taskDescription = newValue }
    }

    /// The value of `earliestBeginDate`, which the system reads on `resume()`.
    package var keptEarliestBeginDate: Date? {
        get { core.earliestBeginDate }
        set { core.earliestBeginDate = newValue }
    }

    open override func resume() { core.resume(self) }
    open override func suspend() { core.suspend() }
    open override func cancel() { core.cancel(self) }

    open override func cancel(byProducingResumeData completionHandler: @escaping (Data?) -> Void) {
        if core.reportRefusal(self) { return completionHandler(nil) }
        guard core.markCanceling() else { return completionHandler(nil) }
        // Foundation's handler is not Sendable; it runs once, after the system answers.
        let handler = UncheckedHandler(completionHandler)
        core.session.commands.send(.cancelProducingResumeData, taskIdentifier: taskIdentifier) { result in
            handler.call(try? result.get())
        }
    }
}

extension URLRequest {
    /// The request a task reports, from the system's description.
    init(_ request: BackgroundTaskRequest) {
        self.init(url: request.url)
        httpMethod = request.httpMethod
        for (name, value) in request.headers { setValue(value, forHTTPHeaderField: name) }
    }
}

extension HTTPURLResponse {
    /// The response a task reports, from the system's description.
    convenience init?(_ response: BackgroundTaskResponse) {
        self.init(url: response.url, statusCode: response.statusCode, httpVersion: "HTTP/1.1",
                  headerFields: response.headers)
    }
}

/// A completion handler Foundation declares without `Sendable`, carried to the one place that calls it.
private struct UncheckedHandler: @unchecked Sendable {
    // @unchecked: the handler is called once, from one task, and never shared beyond that.
    let call: (Data?) -> Void

    init(_ call: @escaping (Data?) -> Void) {
        self.call = call
    }
}
