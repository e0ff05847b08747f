/*
Abstract:
A background session's download task: Foundation's URLSessionDownloadTask whose state the system keeps.
*/

import BackgroundAssetsIPC
import Foundation
import FoundationFixes
import Synchronization

/// A download task of a ``BackgroundURLSession``.
///
/// Its properties read the system's last report: `state`, `response`, `countOfBytesReceived`,
/// `countOfBytesExpectedToReceive`, `error`. `resume()`, `suspend()`, `cancel()` and
/// `cancel(byProducingResumeData:)` ask the system, which does the transfer.
open class BackgroundDownloadTask: URLSessionDownloadTask, EarliestBeginDateKeeping, @unchecked Sendable {
    // @unchecked: URLSessionTask is itself @unchecked Sendable; the state added here is behind a lock.
    struct State {
        var snapshot: BackgroundTaskSnapshot
        var earliestBeginDate: Date?
        var error: (any Error)?
    }

    let session: BackgroundURLSession
    let stored: Mutex<State>
    /// Why the task cannot run (a refused request, an invalid session), reported on `resume()`.
    private let refusal: TaskRefusal?
    private let taskProgress = Progress(totalUnitCount: -1)

    init(snapshot: BackgroundTaskSnapshot, session: BackgroundURLSession, refusal: TaskRefusal? = nil) {
        self.session = session
        self.refusal = refusal
        stored = Mutex(State(snapshot: snapshot, earliestBeginDate: snapshot.earliestBeginDate))
        super.init()
        super.countOfBytesClientExpectsToReceive = snapshot.countOfBytesClientExpectsToReceive
        updateProgress(snapshot)
    }

    private var snapshot: BackgroundTaskSnapshot { stored.withLock { $0.snapshot } }

    open override var taskIdentifier: Int { snapshot.taskIdentifier }
    open override var originalRequest: URLRequest? { URLRequest(snapshot.originalRequest) }
    open override var currentRequest: URLRequest? { URLRequest(snapshot.currentRequest) }
    open override var response: URLResponse? { snapshot.response.flatMap(HTTPURLResponse.init) }
    open override var countOfBytesReceived: Int64 { snapshot.countOfBytesReceived }
    open override var countOfBytesExpectedToReceive: Int64 { snapshot.countOfBytesExpectedToReceive }
    open override var state: URLSessionTask.State {
        if let refusal { return refusal.isReported ? .completed : .suspended }
        return URLSessionTask.State(rawValue: snapshot.state.rawValue) ?? .suspended
    }
    open override var error: (any Error)? {
        if let refusal, refusal.isReported { return refusal.error }
        return stored.withLock { $0.error }
    }
    open override var progress: Progress { taskProgress }

    open override var taskDescription: String? {
        get { snapshot.taskDescription }
        set {
            stored.withLock { $0.snapshot.taskDescription = newValue }
            session.commands.send(.describe(newValue), taskIdentifier: taskIdentifier)
        }
    }

    /// The value of `earliestBeginDate`, which the system reads on `resume()`.
    package var keptEarliestBeginDate: Date? {
        get { stored.withLock { $0.earliestBeginDate } }
        set { stored.withLock { $0.earliestBeginDate = newValue } }
    }

    open override func resume() {
        if reportRefusal() { return }
        let changed = stored.withLock { state -> Bool in
            guard state.snapshot.state == .suspended else { return false }
            state.snapshot.state = .running
            return true
        }
        guard changed else { return }
        session.commands.send(
            .resume(earliestBeginDate: keptEarliestBeginDate,
                    countOfBytesClientExpectsToReceive: countOfBytesClientExpectsToReceive),
            taskIdentifier: taskIdentifier)
    }

    open override func suspend() {
        let changed = stored.withLock { state -> Bool in
            guard refusal == nil, state.snapshot.state == .running else { return false }
            state.snapshot.state = .suspended
            return true
        }
        if changed { session.commands.send(.suspend, taskIdentifier: taskIdentifier) }
    }

    open override func cancel() {
        if reportRefusal() { return }
        guard markCanceling() else { return }
        session.commands.send(.cancel, taskIdentifier: taskIdentifier)
    }

    open override func cancel(byProducingResumeData completionHandler: @escaping (Data?) -> Void) {
        if reportRefusal() { return completionHandler(nil) }
        guard markCanceling() else { return completionHandler(nil) }
        // Foundation's handler is not Sendable; it runs once, after the system answers.
        let handler = UncheckedHandler(completionHandler)
        session.commands.send(.cancelProducingResumeData, taskIdentifier: taskIdentifier) { result in
            handler.call(try? result.get())
        }
    }

    /// Moves a running or suspended task to canceling; false when it already is, or has completed.
    private func markCanceling() -> Bool {
        stored.withLock { state in
            guard state.snapshot.state == .running || state.snapshot.state == .suspended else { return false }
            state.snapshot.state = .canceling
            return true
        }
    }

    /// Completes a task that cannot run with its reason, once; true when the task is such a task.
    private func reportRefusal() -> Bool {
        guard let refusal else { return false }
        refusal.report(for: self, in: session)
        return true
    }

    // MARK: - The system's reports

    /// Takes the system's description of the task.
    func apply(_ snapshot: BackgroundTaskSnapshot) {
        stored.withLock { state in
            state.snapshot = snapshot
            if let failure = snapshot.failure {
                state.error = BackgroundSessionError.error(for: failure, url: snapshot.currentRequest.url)
            }
        }
        updateProgress(snapshot)
    }

    /// Records bytes written.
    func applyProgress(totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        let snapshot = stored.withLock { state in
            state.snapshot.countOfBytesReceived = totalBytesWritten
            state.snapshot.countOfBytesExpectedToReceive = totalBytesExpectedToWrite
            return state.snapshot
        }
        updateProgress(snapshot)
    }

    /// Records the response the file came with.
    func applyResponse(_ response: BackgroundTaskResponse) {
        stored.withLock { $0.snapshot.response = response }
    }

    private func updateProgress(_ snapshot: BackgroundTaskSnapshot) {
        let expected = snapshot.countOfBytesExpectedToReceive > 0
            ? snapshot.countOfBytesExpectedToReceive : snapshot.countOfBytesClientExpectsToReceive
        taskProgress.totalUnitCount = expected > 0 ? expected : -1
        taskProgress.completedUnitCount = snapshot.state == .completed && snapshot.failure == nil
            ? max(expected, snapshot.countOfBytesReceived) : snapshot.countOfBytesReceived
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
