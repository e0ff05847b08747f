/*
Abstract:
The requests of Background Tasks' scheduler and of the tasks it hands to the app.
*/

extension ClientRequest {
    /// The requests `BGTaskScheduler` and its tasks make for the app.
    public enum Tasks: Codable, Sendable, Equatable {
        /// Stores a Background Tasks request, replacing the app's pending one with the same identifier (app only).
        case submitTaskRequest(TaskRequestDescriptor)
        /// Cancels the app's pending request with this identifier, or all of them when `nil`.
        case cancelTaskRequests(identifier: String?)
        /// Asks for the app's pending Background Tasks requests.
        case fetchPendingTaskRequests
        /// Says this connection has a launch handler for the identifier, so its tasks may run here (app only).
        case registerTaskHandler(identifier: String)
        /// A task handed over with `launchTask` ended (`setTaskCompleted(success:)`).
        case taskCompleted(taskID: UInt64, success: Bool)
        /// A running continued-processing task's progress, title and subtitle (app only).
        case reportTaskProgress(taskID: UInt64, progress: TaskProgress)
    }
}
