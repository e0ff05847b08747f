/*
Abstract:
A background session's upload task: Foundation's URLSessionUploadTask whose file the system sends, after the app has gone if need be.
*/

import BackgroundAssetsIPC
import Foundation
import FoundationFixes

/// An upload task of a ``BackgroundURLSession``, made by `uploadTask(with:fromFile:)`.
///
/// The system copies the file when the task is made, and sends it when the task is resumed, also
/// after the app exits. Its properties read the system's last report: `state`, `response`,
/// `countOfBytesSent`, `countOfBytesExpectedToSend`, `countOfBytesReceived` (the answer's body),
/// `error`. The delegate hears `urlSession(_:task:didSendBodyData:totalBytesSent:totalBytesExpectedToSend:)`,
/// the answer's body in `urlSession(_:dataTask:didReceive:)`, then `urlSession(_:task:didCompleteWithError:)`.
open class BackgroundUploadTask: URLSessionUploadTask, BackgroundSessionTask, EarliestBeginDateKeeping, @unchecked Sendable {
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
    open override var countOfBytesSent: Int64 { core.snapshot.countOfBytesSent ?? 0 }
    open override var countOfBytesExpectedToSend: Int64 { core.snapshot.countOfBytesExpectedToSend ?? 0 }
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
}
