/*
Abstract:
The scheduler's link to the system service: requests over the service's socket, task launches back.
*/

import BackgroundAssets
import BackgroundAssetsIPC
import Foundation
import ServiceClient
import Synchronization

/// Sends the scheduler's requests to `backgroundassetsd` and passes its task events on.
final class ServiceTaskTransport: TaskSchedulerTransport {
    /// Holds the scheduler's handlers; the connection's reader thread reads them for each event.
    private final class Relay: Sendable {
        let events = Mutex<TaskEvents?>(nil)
    }

    private let relay = Relay()
    private let connection: ServiceConnection

    init(paths: DevicePaths, identity: ProcessIdentity, launcher: ServiceLauncher?) {
        let relay = relay
        connection = ServiceConnection(
            socketPath: paths.serviceSocket.path, hello: identity.hello, launcher: launcher,
            onEvent: { event in
                guard let handlers = relay.events.withLock({ $0 }) else { return }
                switch event {
                case let .launchTask(taskID, request): handlers.launch(taskID, request)
                case let .expireTask(taskID): handlers.expire(taskID)
                default: break
                }
            })
    }

    func submit(_ request: TaskRequestDescriptor) throws {
        do {
            _ = try connection.send(.tasks(.submitTaskRequest(request)))
        } catch {
            throw Self.schedulerError(error)
        }
    }

    func cancel(identifier: String?) {
        connection.request(.tasks(.cancelTaskRequests(identifier: identifier))) { _ in }
    }

    func pendingRequests() throws -> [TaskRequestDescriptor] {
        guard case let .taskRequests(requests) = try connection.send(.tasks(.fetchPendingTaskRequests)) else { return [] }
        return requests
    }

    func registerHandler(for identifier: String) throws {
        do {
            _ = try connection.send(.tasks(.registerTaskHandler(identifier: identifier)))
            // A service that restarts knows no handlers: the connection registers this one again.
            connection.replayOnReconnect(.tasks(.registerTaskHandler(identifier: identifier)))
        } catch {
            throw Self.schedulerError(error)
        }
    }

    func complete(taskID: UInt64, success: Bool) {
        connection.request(.tasks(.taskCompleted(taskID: taskID, success: success))) { _ in }
    }

    func reportProgress(taskID: UInt64, progress: TaskProgress) {
        connection.request(.tasks(.reportTaskProgress(taskID: taskID, progress: progress))) { _ in }
    }

    func start(events: TaskEvents) {
        relay.events.withLock { $0 = events }
    }

    /// The service's refusal as Background Tasks' error, or `unavailable` when it could not be asked.
    private static func schedulerError(_ error: any Error) -> BGTaskScheduler.Error {
        let nsError = error as NSError
        if nsError.domain == BGTaskSchedulerErrorDomain, let code = BGTaskScheduler.Error.Code(rawValue: nsError.code) {
            return BGTaskScheduler.Error(code, message: nsError.localizedDescription)
        }
        return BGTaskScheduler.Error(.unavailable, message: "The system service could not be asked: \(error)")
    }
}
