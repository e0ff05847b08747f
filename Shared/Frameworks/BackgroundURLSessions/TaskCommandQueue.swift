/*
Abstract:
Sends the app's changes to a session's tasks to the system one at a time, in the order the app made them.
*/

import BackgroundAssetsIPC
import Foundation

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

    init(service: any BackgroundURLSessionService, session: String) {
        let (stream, continuation) = AsyncStream<Command>.makeStream()
        self.continuation = continuation
        sender = Task {
            for await item in stream {
                guard let command = item.command else {
                    item.reply(.success(nil))
                    continue
                }
                do {
                    item.reply(.success(try await service.perform(command, session: session,
                                                                  taskIdentifier: item.taskIdentifier)))
                } catch {
                    item.reply(.failure(error))
                }
            }
        }
    }

    /// Queues a command; `reply` runs once the system has answered.
    func send(_ command: BackgroundTaskCommand, taskIdentifier: Int,
              reply: @escaping @Sendable (Result<Data?, any Error>) -> Void = { _ in }) {
        let result = continuation.yield(Command(command: command, taskIdentifier: taskIdentifier, reply: reply))
        if case .terminated = result {
            reply(.failure(BackgroundSessionError.invalidated))
        }
    }

    /// Runs `body` once every command queued before has been answered by the system (or could not
    /// be sent), so that what the app asks next sees what it changed before: `getAllTasks` after
    /// `resume()` lists a task the system runs.
    func afterQueuedCommands(_ body: @escaping @Sendable () -> Void) {
        let result = continuation.yield(Command(command: nil, taskIdentifier: 0) { _ in body() })
        if case .terminated = result { body() }
    }

    /// Stops sending; commands queued later fail as sent to an invalidated session.
    func finish() {
        continuation.finish()
    }
}
