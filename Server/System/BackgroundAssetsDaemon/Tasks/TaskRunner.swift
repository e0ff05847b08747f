/*
Abstract:
When each Background Task runs, and how each run ends: a value the service owns, that turns each happening into actions.
*/

import BackgroundAssetsIPC
import Foundation

/// The Background Tasks runner: which pending request runs when, where, and how each run ends.
///
/// A value the service owns and tests drive directly, like ``InstallLifecycle``: no I/O and no clock
/// (the caller passes the time). Each method takes what happened and returns the ``TaskRunAction``s
/// to perform, in order; `BackgroundAssetsService+TaskRunner` performs them. The pending requests
/// stay in the ``TaskStore``; the service reads them and each one's ``TaskEligibility`` and hands
/// them to ``pendingConsidered(_:eligibility:now:clock:isAlive:)`` one at a time, in a pass that
/// ``timeReached(now:)`` begins and ``passEnded(now:isConnected:)`` ends. Its data is ``TaskHost``
/// (launch handlers, running tasks, the continued-processing queue, background launches).
///
/// Its invariants:
/// - A pending request is handed to a connection only when its eligibility is ready: its app is
///   launchable, the device's settings and its requirements allow it, its earliest begin date, the
///   spacing since its identifier last ran and its app's refresh spacing have passed, and its app
///   is not in the foreground. `simulate --launch-task` alone overrides that.
/// - A request runs at most once at a time. A ready request whose launch handler is in no live
///   process launches its app in the background instead; it runs once the app registers it.
/// - Each run ends exactly once: completed by its connection, ended at its deadline (its expiration
///   handler asked to run shortly before), or ended because its app's connection closed. A later
///   end of the same run does nothing.
/// - At most ``ContinuedProcessingPolicy/maximumRunning`` continued-processing tasks run at once,
///   first submitted first; one forced by the tool starts whatever the room.
/// - A pass ends with the earliest time anything it saw changes by itself (a held request's date,
///   a running task's expiration or deadline) as ``TaskRunAction/wake(at:)``; with none, the runner
///   sleeps until its inputs change (``TaskRunAction/reconsider``, or the `DeviceState` it reads).
struct TaskRunner: Sendable {
    /// Handlers, running tasks, the continued-processing queue and background launches.
    private(set) var host = TaskHost()
    /// The runtime limit of a refresh task, in real seconds (`appRefreshRuntimeLimit`).
    let appRefreshLimit: TimeInterval
    /// The runtime limit of a processing task, in real seconds (`processingRuntimeLimit`).
    let processingLimit: TimeInterval

    init(appRefreshLimit: TimeInterval, processingLimit: TimeInterval) {
        self.appRefreshLimit = appRefreshLimit
        self.processingLimit = processingLimit
    }

    // MARK: - A pass

    /// The runner looks at the time: running tasks near their limit are asked to expire, and
    /// those past it end.
    mutating func timeReached(now: Date) -> [TaskRunAction] {
        var actions: [TaskRunAction] = []
        for task in host.runningTasks {
            if task.deadline <= now {
                _ = host.removeTask(task.taskID)
                let isContinued = task.request.kind == .continuedProcessing
                // A continued-processing task runs in the app a person uses: it ends, the app stays.
                let killsApp = !isContinued && host.backgroundLaunch(of: task.bundleIdentifier) != nil
                let reason = isContinued
                    ? "\(task.request.identifier) did not complete within \(ContinuedProcessingPolicy.expirationGrace.formatted()) s of its expiration"
                    : "\(task.request.identifier) ran past its \(task.limit.formatted()) s runtime limit"
                host.recordEnding(of: task.bundleIdentifier, reason: reason)
                actions.append(.endedAtDeadline(task, reason: reason, killsApp: killsApp))
            } else if !task.hasExpired, task.expiresAt <= now {
                actions += expire(taskID: task.taskID)
            }
        }
        return actions
    }

    /// One pending request, with its eligibility now, as the pass reads them.
    /// - Parameters:
    ///   - task: The pending request.
    ///   - eligibility: Whether it may run now (ignored for a request the tool forced).
    ///   - now: The real time.
    ///   - clock: The device clock, which turns a hold's device time into real time.
    ///   - isAlive: Whether a connection is open and its process alive.
    mutating func pendingConsidered(
        _ task: PendingTask, eligibility: TaskEligibility, now: Date, clock: DeviceClock, isAlive: (UInt64) -> Bool
    ) -> [TaskRunAction] {
        let app = task.bundleIdentifier
        let identifier = task.request.identifier
        if !host.isForced(app: app, identifier: identifier), case let .held(hold) = eligibility {
            return hold.until.map { [.wake(at: clock.realTime(at: $0))] } ?? []
        }
        return launch(task, now: now, isAlive: isAlive)
    }

    /// Runs a ready request in the connection with its launch handler, or launches the app for it.
    private mutating func launch(_ task: PendingTask, now: Date, isAlive: (UInt64) -> Bool) -> [TaskRunAction] {
        let app = task.bundleIdentifier
        guard !host.isRunning(app: app, identifier: task.request.identifier) else { return [] }
        guard let connection = host.handler(app: app, identifier: task.request.identifier), isAlive(connection) else {
            return [.launchInBackground(app: app)]
        }
        let limit = task.request.kind == .appRefresh ? appRefreshLimit : processingLimit
        return [.handToConnection(host.start(task.request, app: app, connection: connection, now: now, limit: limit))]
    }

    /// The pass read every pending request: queued continued-processing requests start while there
    /// is room, and the runner wakes for the running tasks' expirations and deadlines.
    /// - Parameter isConnected: Whether a connection is still open.
    mutating func passEnded(now: Date, isConnected: (UInt64) -> Bool) -> [TaskRunAction] {
        var actions = startQueuedContinuedProcessing(now: now, isConnected: isConnected)
        // Tasks started just now are running too: their expiration and deadline wake the runner.
        actions += host.runningTasks.map { .wake(at: $0.hasExpired ? $0.deadline : $0.expiresAt) }
        return actions
    }

    /// Starts queued continued-processing requests, first submitted first, while the device has
    /// room; `forced` starts that identifier now whatever the room (`simulate --launch-task`).
    mutating func startQueuedContinuedProcessing(
        forcing identifier: String? = nil, now: Date, isConnected: (UInt64) -> Bool
    ) -> [TaskRunAction] {
        var forced = identifier.flatMap { identifier in host.continuedQueue.all.first { $0.request.identifier == identifier } }
        if let forced { _ = host.continuedQueue.remove(app: forced.bundleIdentifier, identifier: forced.request.identifier) }
        var actions: [TaskRunAction] = []
        while let entry = forced ?? (ContinuedProcessingPolicy.hasRoom(running: host.runningCount(of: .continuedProcessing))
            ? host.continuedQueue.popFirst() : nil)
        {
            forced = nil
            // It starts in the app that submitted it, which is in the foreground; an app that has
            // exited has had its queued requests cancelled with its connection.
            guard isConnected(entry.connection) else { continue }
            let limit = ContinuedProcessingPolicy.stallTimeout + ContinuedProcessingPolicy.expirationGrace
            actions.append(.startContinued(host.start(entry.request, app: entry.bundleIdentifier, connection: entry.connection, now: now, limit: limit)))
        }
        return actions
    }

    // MARK: - Requests and handlers

    /// A connection registered a launch handler for an identifier; the latest registration wins.
    mutating func handlerRegistered(app: String, identifier: String, connection: UInt64) -> [TaskRunAction] {
        host.register(app: app, identifier: identifier, connection: connection)
        return [.reconsider]
    }

    /// A continued-processing request was admitted: it waits for room.
    mutating func continuedSubmitted(_ entry: ContinuedProcessingQueue.Entry) -> [TaskRunAction] {
        host.continuedQueue.enqueue(entry)
        return [.reconsider]
    }

    /// The app cancelled its queued continued-processing requests with an identifier, or all of them.
    /// - Returns: How many were removed.
    mutating func continuedCancelled(app: String, identifier: String?) -> Int {
        host.continuedQueue.remove(app: app, identifier: identifier)
    }

    /// The tool asked for a pending request to run now (`simulate --launch-task`): it runs at once,
    /// or as soon as its handler is there, whatever holds it.
    mutating func launchForced(_ task: PendingTask, now: Date, isAlive: (UInt64) -> Bool) -> [TaskRunAction] {
        host.force(app: task.bundleIdentifier, identifier: task.request.identifier)
        return launch(task, now: now, isAlive: isAlive)
    }

    /// A running continued-processing task reported progress; progress that advances gives it its whole limit again.
    mutating func progressReported(_ progress: TaskProgress, taskID: UInt64, connection: UInt64, now: Date) {
        _ = host.recordProgress(progress, taskID: taskID, connection: connection, now: now)
    }

    // MARK: - Ends

    /// A task's expiration handler is to run (its time is nearly up, or the tool asked): once per run.
    mutating func expire(taskID: UInt64) -> [TaskRunAction] {
        host.expire(taskID: taskID).map { [.expire($0)] } ?? []
    }

    /// The connection running a task says it completed.
    /// - Returns: The task that ended, or `nil` when no such task runs there; and what follows.
    mutating func taskCompleted(taskID: UInt64, connection: UInt64) -> (task: TaskHost.RunningTask?, actions: [TaskRunAction]) {
        guard let task = host.complete(taskID: taskID, connection: connection) else { return (nil, []) }
        var actions: [TaskRunAction] = [.endBackgroundLaunchIfIdle(app: task.bundleIdentifier)]
        // Room for a queued continued-processing request is the one thing an ending frees: the
        // ended request left the store when it launched.
        if !host.continuedQueue.all.isEmpty { actions.append(.reconsider) }
        return (task, actions)
    }

    /// A connection closed: its app crashed or exited. The tasks it ran end, and its queued
    /// continued-processing requests are dropped.
    mutating func connectionClosed(_ connection: UInt64) -> [TaskRunAction] {
        var actions = host.continuedQueue.removeConnection(connection).map(TaskRunAction.droppedQueued)
        for task in host.connectionClosed(connection) {
            host.recordEnding(of: task.bundleIdentifier, reason: "\(task.request.identifier) ended when the app's connection closed while it ran")
            actions.append(.endedWithConnection(task))
        }
        // A continued-processing task that ended leaves room for a queued one, and an app that left
        // the foreground lets its held tasks run.
        return actions + [.reconsider]
    }

    // MARK: - Background launches

    /// Records the app the service launched in the background for its tasks or sessions.
    mutating func launchedInBackground(_ process: ExtensionProcess, app: String) {
        host.recordBackgroundLaunch(process, of: app)
    }

    /// The app's background launch could not start: its tasks' last ending says why.
    mutating func backgroundLaunchFailed(app: String, reason: String) {
        host.recordEnding(of: app, reason: reason)
    }

    /// Forgets the app's background launch, which ended or is being ended.
    /// - Returns: Its process, to end.
    mutating func removeBackgroundLaunch(of app: String) -> ExtensionProcess? {
        host.removeBackgroundLaunch(of: app)
    }

    /// Ends the background launch of an app none of whose tasks runs, when nothing else keeps it.
    /// - Parameters:
    ///   - keptElsewhere: Whether a session or a notification still needs the process.
    ///   - connections: The connections of the launched process, whose handlers go with it.
    /// - Returns: The process to end, or `nil` when it stays.
    mutating func endBackgroundLaunchIfIdle(app: String, keptElsewhere: Bool, connections: (Int32) -> [UInt64]) -> ExtensionProcess? {
        guard !host.runningTasks.contains(where: { $0.bundleIdentifier == app }), !keptElsewhere,
            let process = host.removeBackgroundLaunch(of: app)
        else { return nil }
        // Its tasks go to a new launch from now on, not to a process about to end.
        for connection in connections(process.processIdentifier) { host.withdrawHandlers(of: connection) }
        return process
    }
}
