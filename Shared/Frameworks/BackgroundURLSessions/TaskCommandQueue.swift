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
        var command: BackgroundTaskCommand
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
                do {
                    item.reply(.success(try await service.perform(item.command, session: session,
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

    /// Stops sending; commands queued later fail as sent to an invalidated session.
    func finish() {
        continuation.finish()
    }
}
