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
            // The wake-up is bounded from the pass's start: read again at its end, a clock that moved
            // past the next wake-up during the pass would put it a moment past the new time.
            let passStart = wallClock.now
            // A pass: the time first, then each pending request as it reads now (a launch before it
            // changes what the next one reads: its run, its refresh), then the continued-processing queue.
            var wakeUp = await perform(tasks.timeReached(now: wallClock.now))
            for task in (try? await taskStore.all()) ?? [] {
                let eligibility = await eligibility(of: task)
                wakeUp += await perform(tasks.pendingConsidered(task, eligibility: eligibility, now: wallClock.now, clock: deviceClock, isAlive: { self.isAlive($0) }))
            }
            wakeUp += await perform(tasks.passEnded(now: wallClock.now, isConnected: { self.clients[$0] != nil }))
            guard let next = wakeUp.min() else { return }
            try? await wallClock.sleep(until: min(max(next, passStart.addingTimeInterval(0.001)), passStart.addingTimeInterval(3600)))
        }
    }

    /// Does what the task runner decided, in order.
    /// - Returns: The times it asked to be woken at.
    @discardableResult
    func perform(_ actions: [TaskRunAction]) async -> [Date] {
        var wakeUp: [Date] = []
        for action in actions {
            switch action {
            case let .launchInBackground(app):
                await launchAppInBackground(app)
            case let .handToConnection(running):
                await handToConnection(running)
            case let .wake(date):
                wakeUp.append(date)
            default:
                performAtOnce(action)
            }
        }
        return wakeUp
    }

    /// Does an action that needs no suspension: a trace, a message, a kill, a wake-up of the runner.
    private func performAtOnce(_ action: TaskRunAction) {
        switch action {
        case let .startContinued(running):
            trace.append(.init(from: "backgroundassetsd", to: "app", event: "launchTask", app: running.bundleIdentifier, detail: "\(running.request.identifier) (\(running.request.kind.rawValue))"))
            clients[running.connection]?.connection.send(.event(.launchTask(taskID: running.taskID, request: running.request)))
        case let .expire(task):
            trace.append(.init(from: "backgroundassetsd", to: "app", event: "expireTask", app: task.bundleIdentifier, detail: task.request.identifier))
            clients[task.connection]?.connection.send(.event(.expireTask(taskID: task.taskID)))
        case let .endedAtDeadline(task, reason, killsApp):
            trace.append(.init(from: "backgroundassetsd", to: "app", event: killsApp ? "taskKilled" : "taskEnded", app: task.bundleIdentifier, detail: reason))
            logger.error("The task \(reason) of \(task.bundleIdentifier); \(killsApp ? "its app was killed" : "it no longer counts as running").")
            if killsApp { tasks.removeBackgroundLaunch(of: task.bundleIdentifier)?.kill() }
        case let .endedWithConnection(task):
            trace.append(.init(from: "app", to: "backgroundassetsd", event: "taskEnded", app: task.bundleIdentifier, detail: "\(task.request.identifier): the app's connection closed while it ran"))
        case let .droppedQueued(entry):
            trace.append(.init(from: "app", to: "backgroundassetsd", event: "cancelTaskRequest", app: entry.bundleIdentifier, detail: "\(entry.request.identifier): the app exited while it waited"))
        case let .endBackgroundLaunchIfIdle(app):
            endBackgroundLaunchIfIdle(app: app)
        case .reconsider:
            deviceState.tasksChanged()
        case .launchInBackground, .handToConnection, .wake:
            // They suspend, or belong to the pass: `perform(_:)` does them.
            break
        }
    }

    /// Whether a connection is open and its process alive: a task handed to it would run.
    func isAlive(_ connection: UInt64) -> Bool {
        guard let client = clients[connection] else { return false }
        return ProcessLiveness.isRunning(client.connection.peer.processIdentifier)
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
        let background = tasks.host.backgroundLaunch(of: app)?.processIdentifier
        return clients.all.contains { client in
            guard let hello = client.hello, hello.role == .app, hello.bundleIdentifier == app else { return false }
            let process = client.connection.peer.processIdentifier
            return process != background && ProcessLiveness.isRunning(process)
        }
    }

    /// Hands a task the runner started to the connection with its launch handler.
    private func handToConnection(_ running: TaskHost.RunningTask) async {
        let app = running.bundleIdentifier
        let request = running.request
        trace.append(.init(from: "backgroundassetsd", to: "app", event: "launchTask", app: app, detail: "\(request.identifier) (\(request.kind.rawValue), \(running.limit.formatted()) s)"))
        // The request leaves the store and its run is recorded before the app hears of it: a launch
        // handler that submits its request again must find the new one kept, and spaced from this run.
        _ = try? await taskStore.remove(app: app, identifier: request.identifier)
        try? await taskStore.recordRun(app: app, identifier: request.identifier, at: deviceNow)
        if request.kind == .appRefresh { try? await taskStore.recordRefresh(app: app, at: deviceNow) }
        clients[running.connection]?.connection.send(.event(.launchTask(taskID: running.taskID, request: request)))
    }

    /// Ends the tasks of a closed connection: a crash of the app ends its tasks unsuccessfully, and
    /// cancels its queued continued-processing requests. At once: what the connection ran must not
    /// count as running by the time the next request is read.
    func tasksConnectionClosed(_ connection: UInt64) {
        for action in tasks.connectionClosed(connection) { performAtOnce(action) }
    }
}
