/*
Abstract:
What the scheduler needs from the system: a place to keep requests and a source of task launches.
*/

import BackgroundAssetsIPC

/// The system side of ``BGTaskScheduler``: the service in this project, a fake in tests.
protocol TaskSchedulerTransport: Sendable {
    /// Stores a request durably, replacing a pending one with the same identifier.
    /// - Throws: ``BGTaskScheduler/Error`` when the system refuses it.
    func submit(_ request: TaskRequestDescriptor) throws

    /// Removes the pending request with this identifier, or every pending request when `nil`.
    func cancel(identifier: String?)

    /// The app's pending requests.
    func pendingRequests() throws -> [TaskRequestDescriptor]

    /// Says this process has a launch handler for `identifier`, so the system may hand it that
    /// task from now on; called once per registered identifier.
    /// - Throws: ``BGTaskScheduler/Error`` when the installed app does not permit the identifier.
    func registerHandler(for identifier: String) throws

    /// Says a task the system handed over ended.
    func complete(taskID: UInt64, success: Bool)

    /// Reports a running continued-processing task's progress, title and subtitle.
    func reportProgress(taskID: UInt64, progress: TaskProgress)

    /// Starts delivering task launches and expirations; called once, before the first registration.
    func start(events: TaskEvents)
}

/// Where the transport delivers what the system asks of the process.
struct TaskEvents: Sendable {
    /// Run the handler registered for the request's identifier; the task's id pairs it with its end.
    let launch: @Sendable (_ taskID: UInt64, _ request: TaskRequestDescriptor) -> Void
    /// The task's time is nearly up: run its expiration handler.
    let expire: @Sendable (_ taskID: UInt64) -> Void
}
