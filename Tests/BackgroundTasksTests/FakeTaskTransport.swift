/*
Abstract:
A stand-in for the system service that records what the scheduler asks and lets a test launch tasks.
*/

@testable import BackgroundTasks
import BackgroundAssetsIPC
import Synchronization

/// Records requests, refuses what the test says to refuse, and delivers launches and expirations on demand.
final class FakeTaskTransport: TaskSchedulerTransport {
    struct State {
        var submitted: [TaskRequestDescriptor] = []
        var cancelled: [String?] = []
        var registered: [String] = []
        var completed: [UInt64: Bool] = [:]
        var progress: [UInt64: [TaskProgress]] = [:]
        var events: TaskEvents?
        var refusal: BGTaskScheduler.Error?
    }

    let state = Mutex(State())

    func submit(_ request: TaskRequestDescriptor) throws {
        try state.withLock { state in
            if let refusal = state.refusal { throw refusal }
            state.submitted.removeAll { $0.identifier == request.identifier }
            state.submitted.append(request)
        }
    }

    func cancel(identifier: String?) {
        state.withLock { state in
            state.cancelled.append(identifier)
            state.submitted.removeAll { identifier == nil || $0.identifier == identifier }
        }
    }

    func pendingRequests() throws -> [TaskRequestDescriptor] { state.withLock { $0.submitted } }

    func registerHandler(for identifier: String) throws {
        try state.withLock { state in
            if let refusal = state.refusal { throw refusal }
            state.registered.append(identifier)
        }
    }

    func complete(taskID: UInt64, success: Bool) { state.withLock { $0.completed[taskID] = success } }

    func reportProgress(taskID: UInt64, progress: TaskProgress) {
        state.withLock { $0.progress[taskID, default: []].append(progress) }
    }

    func start(events: TaskEvents) { state.withLock { $0.events = events } }

    /// Hands the scheduler a task, as the service does when one is due.
    func launch(_ taskID: UInt64, _ request: TaskRequestDescriptor) { state.withLock { $0.events }?.launch(taskID, request) }

    /// Tells the scheduler a running task's time is nearly up.
    func expire(_ taskID: UInt64) { state.withLock { $0.events }?.expire(taskID) }

    func completion(of taskID: UInt64) -> Bool? { state.withLock { $0.completed[taskID] } }
}

/// A value several threads update, captured by handlers that escape.
final class Locked<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    init(_ value: Value) { self.value = Mutex(value) }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result { value.withLock { body(&$0) } }
}
