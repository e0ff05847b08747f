/*
Abstract:
Which connections run which tasks: registered launch handlers and the tasks running in them.
*/

import BackgroundAssetsIPC
import Foundation

/// The running side of Background Tasks: where each app's launch handlers are, and what runs there.
///
/// The data of ``TaskRunner``, which decides with it: no I/O, no clock; the caller passes the time.
public struct TaskHost: Sendable {
    /// A task handed to a connection and not yet ended.
    public struct RunningTask: Sendable, Equatable {
        /// The id the connection answers `taskCompleted` with.
        public var taskID: UInt64
        /// The app it runs for.
        public var bundleIdentifier: String
        /// The request it was launched for.
        public var request: TaskRequestDescriptor
        /// The connection running it.
        public var connection: UInt64
        /// When it started (real time).
        public var started: Date
        /// Its runtime limit, in real seconds.
        public var limit: TimeInterval
        /// When its expiration handler is due (real time).
        public var expiresAt: Date
        /// When its time is up (real time).
        public var deadline: Date
        /// Whether its expiration handler has been asked to run.
        public var hasExpired = false
        /// A continued-processing task's last reported progress.
        public var progress: TaskProgress?
    }

    /// The continued-processing requests waiting for room to run.
    public var continuedQueue = ContinuedProcessingQueue()

    private var handlers: [String: [String: UInt64]] = [:]
    private var running: [UInt64: RunningTask] = [:]
    private var nextTaskID: UInt64 = 1
    /// Apps the service launched only for their tasks, by bundle identifier.
    private var launches: [String: ExtensionProcess] = [:]
    /// Why each app's last task ended by force.
    private var endings: [String: String] = [:]
    /// Requests `simulate --launch-task` asked for, by app and identifier: they run as soon as a handler is there.
    private var forced: Set<[String]> = []

    /// Creates an empty host.
    public init() {}

    /// Records that a connection has a launch handler for an app's identifier; the latest wins.
    public mutating func register(app: String, identifier: String, connection: UInt64) {
        handlers[app, default: [:]][identifier] = connection
    }

    /// The connection with a launch handler for the identifier, if any.
    public func handler(app: String, identifier: String) -> UInt64? {
        handlers[app]?[identifier]
    }

    /// Whether a task with this identifier is running for the app (a request does not run twice at once).
    public func isRunning(app: String, identifier: String) -> Bool {
        running.values.contains { $0.bundleIdentifier == app && $0.request.identifier == identifier }
    }

    /// Marks a pending request to run as soon as its handler is registered, whatever its gates.
    public mutating func force(app: String, identifier: String) {
        forced.insert([app, identifier])
    }

    /// Whether a pending request was forced to run.
    public func isForced(app: String, identifier: String) -> Bool {
        forced.contains([app, identifier])
    }

    /// Starts a task in a connection.
    /// - Parameters:
    ///   - request: The request.
    ///   - app: The app.
    ///   - connection: The connection with the launch handler.
    ///   - now: The real time.
    ///   - limit: The task's runtime limit in real seconds; its expiration handler runs shortly before.
    /// - Returns: The running task.
    public mutating func start(
        _ request: TaskRequestDescriptor, app: String, connection: UInt64, now: Date, limit: TimeInterval
    ) -> RunningTask {
        let taskID = nextTaskID
        nextTaskID += 1
        forced.remove([app, request.identifier])
        let task = RunningTask(
            taskID: taskID, bundleIdentifier: app, request: request, connection: connection, started: now,
            limit: limit, expiresAt: now.addingTimeInterval(Self.warning(before: limit)), deadline: now.addingTimeInterval(limit))
        running[taskID] = task
        return task
    }

    /// When a task's expiration handler runs: a little before its limit.
    private static func warning(before limit: TimeInterval) -> TimeInterval {
        max(limit * 0.8, limit - 5)
    }

    /// Records a running continued-processing task's progress, title and subtitle.
    ///
    /// Progress that advances (more units done, or a new total) gives the task its whole limit
    /// again: the system expires only a task that appears stalled.
    /// - Returns: Whether the task runs in that connection.
    public mutating func recordProgress(
        _ progress: TaskProgress, taskID: UInt64, connection: UInt64, now: Date
    ) -> Bool {
        guard var task = running[taskID], task.connection == connection else { return false }
        let advanced = task.progress.map {
            progress.completedUnitCount != $0.completedUnitCount || progress.totalUnitCount != $0.totalUnitCount
        } ?? true
        if task.request.kind == .continuedProcessing, advanced, !task.hasExpired {
            task.expiresAt = now.addingTimeInterval(Self.warning(before: task.limit))
            task.deadline = now.addingTimeInterval(task.limit)
        }
        task.progress = progress
        running[taskID] = task
        return true
    }

    /// How many tasks of a kind run, across apps.
    public func runningCount(of kind: TaskRequestDescriptor.Kind) -> Int {
        running.values.filter { $0.request.kind == kind }.count
    }

    /// Ends a task; returns it if it was running in that connection.
    public mutating func complete(taskID: UInt64, connection: UInt64) -> RunningTask? {
        guard running[taskID]?.connection == connection else { return nil }
        return running.removeValue(forKey: taskID)
    }

    /// Marks a task's expiration handler as asked to run; returns it if it was running and not yet expired.
    public mutating func expire(taskID: UInt64) -> RunningTask? {
        guard var task = running[taskID], !task.hasExpired else { return nil }
        task.hasExpired = true
        running[taskID] = task
        return task
    }

    /// Ends and returns a task whose deadline passed.
    public mutating func removeTask(_ taskID: UInt64) -> RunningTask? {
        running.removeValue(forKey: taskID)
    }

    /// Forgets the launch handlers of a connection whose process is being ended: a task that
    /// becomes ready from now on launches the app again rather than going to a process that is
    /// about to exit, where it would end unrun. The connection's running tasks are untouched.
    public mutating func withdrawHandlers(of connection: UInt64) {
        for app in handlers.keys {
            handlers[app] = handlers[app]?.filter { $0.value != connection }
        }
    }

    /// Forgets a closed connection: its handlers go, and the tasks it was running end.
    /// - Returns: The tasks that were running in it.
    public mutating func connectionClosed(_ connection: UInt64) -> [RunningTask] {
        withdrawHandlers(of: connection)
        let ended = running.values.filter { $0.connection == connection }
        for task in ended { running[task.taskID] = nil }
        return ended.sorted { $0.taskID < $1.taskID }
    }

    /// Every running task, by id.
    public var runningTasks: [RunningTask] { running.values.sorted { $0.taskID < $1.taskID } }

    /// The running task of an app with this identifier, if any.
    public func runningTask(app: String, identifier: String) -> RunningTask? {
        running.values.first { $0.bundleIdentifier == app && $0.request.identifier == identifier }
    }

    // MARK: - Background launches

    /// The app's process the service launched in the background for its tasks, if it runs.
    func backgroundLaunch(of app: String) -> ExtensionProcess? {
        launches[app]
    }

    /// Every process launched in the background for tasks.
    var backgroundLaunches: [ExtensionProcess] {
        launches.keys.sorted().compactMap { launches[$0] }
    }

    /// Records an app launched in the background for its tasks.
    mutating func recordBackgroundLaunch(_ process: ExtensionProcess, of app: String) {
        launches[app] = process
    }

    /// Forgets an app's background launch, which ended or is being ended.
    mutating func removeBackgroundLaunch(of app: String) -> ExtensionProcess? {
        launches.removeValue(forKey: app)
    }

    /// Remembers why an app's last task ended by force, for `status`.
    public mutating func recordEnding(of app: String, reason: String) {
        endings[app] = reason
    }

    /// Why an app's last task ended by force, if one did.
    public func lastEnding(of app: String) -> String? {
        endings[app]
    }
}
