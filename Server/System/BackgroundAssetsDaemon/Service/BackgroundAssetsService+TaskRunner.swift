/*
Abstract:
Background Tasks on the service: the runner that hands ready tasks to their apps, expires them and ends them.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// Re-evaluates the pending tasks when the device state says anything that decides when they run
    /// has changed: settings, the clock, installs, app records, requests, handlers, running tasks or
    /// the apps in the foreground. The runner's own launches and expirations do not wake it again.
    func taskInputsChanged(from old: DeviceState) {
        guard deviceState.isStarted, deviceState.taskRevision != old.taskRevision else { return }
        taskTimer?.cancel()
        taskTimer = activities.run("Background Tasks runner") { [weak self] in await self?.runTasks() }
    }

    /// Hands every ready task to its app, expires and ends running ones, then sleeps until the next change.
    func runTasks() async {
        while !Task.isCancelled {
            let now = time.now
            await expireRunningTasks(now: now)
            var wakeUp: [Date] = []
            for task in (try? await taskStore.all()) ?? [] {
                if taskHost.isForced(app: task.bundleIdentifier, identifier: task.request.identifier) {
                    await launch(task)
                    continue
                }
                switch await eligibility(of: task) {
                case .ready:
                    await launch(task)
                case let .held(hold):
                    if let until = hold.until { wakeUp.append(clock.realTime(at: until)) }
                }
            }
            startQueuedContinuedProcessing()
            // Tasks launched just now are running too: their expiration and deadline wake the loop.
            wakeUp += taskHost.runningTasks.map { $0.hasExpired ? $0.deadline : $0.expiresAt }
            guard let next = wakeUp.min() else { return }
            let delay = min(max(next.timeIntervalSince(time.now), 0.001), 3600)
            try? await time.sleep(for: .seconds(fractional: delay))
        }
    }

    /// Whether a pending task may run now, as `status` and the runner see it.
    func eligibility(of task: PendingTask) async -> TaskEligibility {
        let installed = try? await registry.app(task.bundleIdentifier)
        let launchable = installed?.state == .launchable && !installs.isInstalling(task.bundleIdentifier)
        let now = deviceNow
        var usage: RefreshUsage?
        if let app = installed {
            usage = RefreshUsage(
                periodicInterval: periodic.schedule.interval(launches: app.launchHistory, installDate: app.installDate, now: now),
                lastRefresh: try? await taskStore.lastRefresh(app: app.bundleIdentifier))
        }
        let lastRun = try? await taskStore.lastRun(app: task.bundleIdentifier, identifier: task.request.identifier)
        return TaskEligibility.of(
            task, settings: settings, isLaunchable: launchable, usage: usage, lastRun: lastRun,
            spacing: configuration.taskRunSpacing, isAppInForeground: isInForeground(task.bundleIdentifier), now: now)
    }

    /// Whether a process of the app that the service did not launch in the background is connected
    /// and alive: a person is using the app, and its tasks wait until it has left.
    func isInForeground(_ app: String) -> Bool {
        let background = taskHost.backgroundLaunch(of: app)?.processIdentifier
        return clients.all.contains { client in
            guard let hello = client.hello, hello.role == .app, hello.bundleIdentifier == app else { return false }
            let process = client.connection.peer.processIdentifier
            return process != background && ProcessLiveness.isRunning(process)
        }
    }

    /// Runs one ready task in the connection that registered its handler, or launches the app for it.
    func launch(_ task: PendingTask) async {
        let app = task.bundleIdentifier
        guard !taskHost.isRunning(app: app, identifier: task.request.identifier) else { return }
        guard let connection = taskHost.handler(app: app, identifier: task.request.identifier),
            let client = clients[connection], ProcessLiveness.isRunning(client.connection.peer.processIdentifier)
        else {
            await launchAppInBackground(app)
            return
        }
        // Started before the first suspension: a runner that interleaves here sees the task running,
        // so it neither launches it twice nor forgets to wake for its expiration.
        let limit = task.request.kind == .appRefresh ? configuration.appRefreshRuntimeLimit : configuration.processingRuntimeLimit
        let running = taskHost.start(task.request, app: app, connection: connection, now: time.now, limit: limit)
        trace.append(.init(from: "backgroundassetsd", to: "app", event: "launchTask", app: app, detail: "\(task.request.identifier) (\(task.request.kind.rawValue), \(limit.formatted()) s)"))
        // The request leaves the store and its run is recorded before the app hears of it: a launch
        // handler that submits its request again must find the new one kept, and spaced from this run.
        _ = try? await taskStore.remove(app: app, identifier: task.request.identifier)
        try? await taskStore.recordRun(app: app, identifier: task.request.identifier, at: deviceNow)
        if task.request.kind == .appRefresh { try? await taskStore.recordRefresh(app: app, at: deviceNow) }
        client.connection.send(.event(.launchTask(taskID: running.taskID, request: task.request)))
    }

    /// Starts queued continued-processing requests, first submitted first, while the device has room;
    /// `force` starts that identifier now whatever the room (`simulate --launch-task`).
    func startQueuedContinuedProcessing(force identifier: String? = nil) {
        var forced = identifier.flatMap { identifier in
            taskHost.continuedQueue.all.first { $0.request.identifier == identifier }
        }
        if let forced { taskHost.continuedQueue.remove(app: forced.bundleIdentifier, identifier: forced.request.identifier) }
        while let entry = forced ?? (ContinuedProcessingPolicy.hasRoom(running: taskHost.runningCount(of: .continuedProcessing))
            ? taskHost.continuedQueue.popFirst() : nil)
        {
            forced = nil
            // It starts in the app that submitted it, which is in the foreground; an app that has
            // exited has had its queued requests cancelled with its connection.
            guard let client = clients[entry.connection] else { continue }
            let limit = ContinuedProcessingPolicy.stallTimeout + ContinuedProcessingPolicy.expirationGrace
            let running = taskHost.start(entry.request, app: entry.bundleIdentifier, connection: entry.connection, now: time.now, limit: limit)
            trace.append(.init(from: "backgroundassetsd", to: "app", event: "launchTask", app: entry.bundleIdentifier, detail: "\(entry.request.identifier) (\(entry.request.kind.rawValue))"))
            client.connection.send(.event(.launchTask(taskID: running.taskID, request: entry.request)))
        }
    }

    /// Asks running tasks near their limit to expire, and ends those past it.
    func expireRunningTasks(now: Date) async {
        for task in taskHost.runningTasks {
            if task.deadline <= now {
                _ = taskHost.removeTask(task.taskID)
                let isContinued = task.request.kind == .continuedProcessing
                // A continued-processing task runs in the app a person uses: it ends, the app stays.
                let killed = !isContinued && taskHost.backgroundLaunch(of: task.bundleIdentifier) != nil
                let reason = isContinued
                    ? "\(task.request.identifier) did not complete within \(ContinuedProcessingPolicy.expirationGrace.formatted()) s of its expiration"
                    : "\(task.request.identifier) ran past its \(task.limit.formatted()) s runtime limit"
                trace.append(.init(from: "backgroundassetsd", to: "app", event: killed ? "taskKilled" : "taskEnded", app: task.bundleIdentifier, detail: reason))
                logger.error("The task \(reason) of \(task.bundleIdentifier); \(killed ? "its app was killed" : "it no longer counts as running").")
                taskHost.recordEnding(of: task.bundleIdentifier, reason: reason)
                if killed { taskHost.removeBackgroundLaunch(of: task.bundleIdentifier)?.kill() }
            } else if !task.hasExpired, task.expiresAt <= now {
                sendExpiration(task.taskID)
            }
        }
    }

    func sendExpiration(_ taskID: UInt64) {
        guard let task = taskHost.expire(taskID: taskID), let client = clients[task.connection] else { return }
        trace.append(.init(from: "backgroundassetsd", to: "app", event: "expireTask", app: task.bundleIdentifier, detail: task.request.identifier))
        client.connection.send(.event(.expireTask(taskID: taskID)))
    }

    /// Ends the tasks of a closed connection: a crash of the app ends its tasks unsuccessfully, and
    /// cancels its queued continued-processing requests.
    func tasksConnectionClosed(_ connection: UInt64) {
        for entry in taskHost.continuedQueue.removeConnection(connection) {
            trace.append(.init(from: "app", to: "backgroundassetsd", event: "cancelTaskRequest", app: entry.bundleIdentifier, detail: "\(entry.request.identifier): the app exited while it waited"))
        }
        for task in taskHost.connectionClosed(connection) {
            trace.append(.init(from: "app", to: "backgroundassetsd", event: "taskEnded", app: task.bundleIdentifier, detail: "\(task.request.identifier): the app's connection closed while it ran"))
            taskHost.recordEnding(of: task.bundleIdentifier, reason: "\(task.request.identifier) ended when the app's connection closed while it ran")
        }
        // A continued-processing task that ended leaves room for a queued one, and an app that left
        // the foreground lets its held tasks run.
        deviceState.tasksChanged()
    }
}
