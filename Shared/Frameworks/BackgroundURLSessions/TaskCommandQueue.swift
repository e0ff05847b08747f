/*
Abstract:
Sends the app's changes to a session's tasks to the system one at a time, in the order the app made them.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization

/// A serial line from the task objects to the system.
///
/// `resume()`, `suspend()` and `cancel()` return at once, as Foundation's do; their requests must
/// still reach the system in order (a resume then a cancel must not arrive as a cancel then a
/// resume), so they queue here and one task sends them.
final class TaskCommandQueue: Sendable {
    private struct Command: Sendable {
        /// The change to send, or `nil` for a mark that only waits for the changes queued before it.
        var command: BackgroundTaskCommand?
        var taskIdentifier: Int
        var reply: @Sendable (Result<Data?, any Error>) -> Void
    }

    private let continuation: AsyncStream<Command>.Continuation
    private let sender: Task<Void, Never>
    /// Commands queued and not yet answered; a class, so that the sender shares it.
    private final class Pending: Sendable {
        let count = Atomic<Int>(0)
    }

    private let pending = Pending()

    init(service: any BackgroundURLSessionService, session: String) {
        let (stream, continuation) = AsyncStream<Command>.makeStream()
        self.continuation = continuation
        sender = Task { [pending] in
            for await item in stream {
                guard let command = item.command else {
                    item.reply(.success(nil))
                    continue
                }
                let result: Result<Data?, any Error>
                do {
                    result = .success(try await service.perform(command, session: session, taskIdentifier: item.taskIdentifier))
                } catch {
                    result = .failure(error)
                }
                pending.count.subtract(1, ordering: .sequentiallyConsistent)
                item.reply(result)
            }
        }
    }

    /// Queues a command; `reply` runs once the system has answered.
    func send(_ command: BackgroundTaskCommand, taskIdentifier: Int,
              reply: @escaping @Sendable (Result<Data?, any Error>) -> Void = { _ in }) {
        pending.count.add(1, ordering: .sequentiallyConsistent)
        let result = continuation.yield(Command(command: command, taskIdentifier: taskIdentifier, reply: reply))
        if case .terminated = result {
            pending.count.subtract(1, ordering: .sequentiallyConsistent)
            reply(.failure(BackgroundSessionError.invalidated))
        }
    }

    /// Runs `body` once every command queued before has been answered by the system (or could not
    /// be sent), so that what the app asks next sees what it changed before: `getAllTasks` after
    /// `resume()` lists a task the system runs.
    ///
    /// With nothing queued, `body` runs at once: `getAllTasks` asked before the session attached then
    /// answers, on the delegate queue, ahead of the events that arrived with the attachment, so the
    /// app sees a task before its completion.
    func afterQueuedCommands(_ body: @escaping @Sendable () -> Void) {
        if pending.count.load(ordering: .sequentiallyConsistent) == 0 { return body() }
        let result = continuation.yield(Command(command: nil, taskIdentifier: 0) { _ in body() })
        if case .terminated = result { body() }
    }

    /// Stops sending; commands queued later fail as sent to an invalidated session.
    func finish() {
        continuation.finish()
    }
}
