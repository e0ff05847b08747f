/*
Abstract:
What every task of a background session keeps and does, whether it downloads or uploads: the system's last report, and the app's changes sent to it.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization

/// A task of a ``BackgroundURLSession``: Foundation's download or upload task, over a ``BackgroundTaskCore``.
protocol BackgroundSessionTask: URLSessionTask {
    /// The task's state and its link to the system.
    var core: BackgroundTaskCore { get }
}

/// The state of one task of a background session, and the requests that change it.
///
/// Foundation's task classes are a hierarchy (an upload task is a data task), so a download task
/// and an upload task cannot share a superclass of this module's; each holds one of these and
/// forwards Foundation's properties and methods to it.
final class BackgroundTaskCore: Sendable {
    struct State {
        var snapshot: BackgroundTaskSnapshot
        var earliestBeginDate: Date?
        var error: (any Error)?
    }

    let session: BackgroundURLSession
    let stored: Mutex<State>
    /// Why the task cannot run (a refused request, an invalid session), reported on `resume()`.
    let refusal: TaskRefusal?
    let progress = Progress(totalUnitCount: -1)

    init(snapshot: BackgroundTaskSnapshot, session: BackgroundURLSession, refusal: TaskRefusal?) {
        self.session = session
        self.refusal = refusal
        stored = Mutex(State(snapshot: snapshot, earliestBeginDate: snapshot.earliestBeginDate))
        updateProgress(snapshot)
    }

    var snapshot: BackgroundTaskSnapshot { stored.withLock { $0.snapshot } }

    var state: URLSessionTask.State {
        if let refusal { return refusal.isReported ? .completed : .suspended }
        return URLSessionTask.State(rawValue: snapshot.state.rawValue) ?? .suspended
    }

    var error: (any Error)? {
        if let refusal, refusal.isReported { return refusal.error }
        return stored.withLock { $0.error }
    }

    var taskDescription: String? {
        get { snapshot.taskDescription }
        set {
            stored.withLock { $0.snapshot.taskDescription = newValue }
            session.commands.send(.describe(newValue), taskIdentifier: snapshot.taskIdentifier)
        }
    }

    /// The value of `earliestBeginDate`, which the system reads on `resume()`.
    var earliestBeginDate: Date? {
        get { stored.withLock { $0.earliestBeginDate } }
        set { stored.withLock { $0.earliestBeginDate = newValue } }
    }

    func resume(_ task: URLSessionTask) {
        if reportRefusal(task) { return }
        let changed = stored.withLock { state -> Bool in
            guard state.snapshot.state == .suspended else { return false }
            state.snapshot.state = .running
            return true
        }
        guard changed else { return }
        session.commands.send(.resume(earliestBeginDate: earliestBeginDate,
                                      countOfBytesClientExpectsToReceive: task.countOfBytesClientExpectsToReceive),
                              taskIdentifier: snapshot.taskIdentifier)
    }

    func suspend() {
        let changed = stored.withLock { state -> Bool in
            guard refusal == nil, state.snapshot.state == .running else { return false }
            state.snapshot.state = .suspended
            return true
        }
        if changed { session.commands.send(.suspend, taskIdentifier: snapshot.taskIdentifier) }
    }

    func cancel(_ task: URLSessionTask) {
        if reportRefusal(task) { return }
        guard markCanceling() else { return }
        session.commands.send(.cancel, taskIdentifier: snapshot.taskIdentifier)
    }

    /// Moves a running or suspended task to canceling; false when it already is, or has completed.
    func markCanceling() -> Bool {
        stored.withLock { state in
            guard state.snapshot.state == .running || state.snapshot.state == .suspended else { return false }
            state.snapshot.state = .canceling
            return true
        }
    }

    /// Completes a task that cannot run with its reason, once; true when the task is such a task.
    func reportRefusal(_ task: URLSessionTask) -> Bool {
        guard let refusal else { return false }
        refusal.report(for: task, in: session)
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

    /// Records bytes written to a download's file.
    func applyProgress(totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        let snapshot = stored.withLock { state in
            state.snapshot.countOfBytesReceived = totalBytesWritten
            state.snapshot.countOfBytesExpectedToReceive = totalBytesExpectedToWrite
            return state.snapshot
        }
        updateProgress(snapshot)
    }

    /// Records bytes of an upload's body sent.
    func applySent(totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        let snapshot = stored.withLock { state in
            state.snapshot.countOfBytesSent = totalBytesSent
            state.snapshot.countOfBytesExpectedToSend = totalBytesExpectedToSend
            return state.snapshot
        }
        updateProgress(snapshot)
    }

    /// Records the response the file came with.
    func applyResponse(_ response: BackgroundTaskResponse) {
        stored.withLock { $0.snapshot.response = response }
    }

    /// A download's progress counts bytes received; an upload's, bytes sent.
    private func updateProgress(_ snapshot: BackgroundTaskSnapshot) {
        let done: Int64
        var expected: Int64
        if let sent = snapshot.countOfBytesSent {
            (done, expected) = (sent, snapshot.countOfBytesExpectedToSend ?? -1)
        } else {
            done = snapshot.countOfBytesReceived
            expected = snapshot.countOfBytesExpectedToReceive > 0
                ? snapshot.countOfBytesExpectedToReceive : snapshot.countOfBytesClientExpectsToReceive
        }
        if expected <= 0, snapshot.countOfBytesSent != nil { expected = 0 }
        progress.totalUnitCount = expected > 0 ? expected : -1
        progress.completedUnitCount = snapshot.state == .completed && snapshot.failure == nil ? max(expected, done) : done
    }
}
