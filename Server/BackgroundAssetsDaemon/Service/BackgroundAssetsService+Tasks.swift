/*
Abstract:
Background Tasks on the service: requests checked and stored, tasks handed to the app, expired and ended.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundAssetsService {
    /// The domain of the errors Background Tasks' scheduler throws.
    static let taskErrorDomain = "BGTaskSchedulerErrorDomain"

    /// A failure in Background Tasks' domain: 1 unavailable, 2 too many pending, 3 not permitted.
    func taskFailure(_ code: Int, _ message: String) -> ServerResponse {
        .failure(WireFailure(domain: Self.taskErrorDomain, code: code, message: message))
    }

    // MARK: - Requests

    /// Answers the Background Tasks requests of an app or the debug tool.
    func handleTaskRequest(_ request: ClientRequest, hello: Hello, connection: UInt64) async -> ServerResponse {
        let app = hello.bundleIdentifier
        switch request {
        case let .submitTaskRequest(descriptor):
            guard hello.role == .app else {
                return taskFailure(1, "Background Tasks are not available to app extensions; submit the request from the app.")
            }
            return await submitTask(descriptor, app: app)
        case let .cancelTaskRequests(identifier):
            let removed = (try? await taskStore.remove(app: app, identifier: identifier)) ?? 0
            trace.append(.init(from: hello.role.rawValue, to: "backgroundassetsd", event: "cancelTaskRequest", app: app, detail: identifier ?? "all (\(removed))"))
            scheduleTasks()
            return .done
        case .fetchPendingTaskRequests:
            let pending = (try? await taskStore.all()) ?? []
            let deviceNow = clock.deviceTime(at: .now)
            return .taskRequests(pending.filter { $0.bundleIdentifier == app }.map { task in
                var request = task.request
                request.earliestBeginDate = request.earliestBeginDate.map { Date.now.addingTimeInterval($0.timeIntervalSince(deviceNow)) }
                return request
            })
        case let .registerTaskHandler(identifier):
            guard hello.role == .app else {
                return taskFailure(1, "Background Tasks are not available to app extensions; register launch handlers in the app.")
            }
            guard let permission = await taskPermission(of: app) else {
                return taskFailure(1, "\(app) is not installed, so it cannot run background tasks; run backgroundassets-debug install first.")
            }
            if let refusal = permission.refusalToRegister(identifier) { return taskFailure(3, refusal) }
            taskHost.register(app: app, identifier: identifier, connection: connection)
            trace.append(.init(from: "app", to: "backgroundassetsd", event: "registerTaskHandler", app: app, detail: identifier))
            scheduleTasks()
            return .done
        case let .taskCompleted(taskID, success):
            if let task = taskHost.complete(taskID: taskID, connection: connection) {
                trace.append(.init(from: "app", to: "backgroundassetsd", event: "taskCompleted", app: app, detail: "\(task.request.identifier) success \(success)"))
                endBackgroundLaunchIfIdle(app: app)
            }
            return .done
        case let .simulateTask(action, identifier, bundleIdentifier):
            guard hello.role == .tool else {
                return failure(.callerConnectionNotAccepted, "Only backgroundassets-debug may simulate tasks; run backgroundassets-debug simulate.")
            }
            return await simulateTask(action, identifier: identifier, bundleIdentifier: bundleIdentifier)
        default:
            return failure(.downloadFailedToStart, "\(request) is not a Background Tasks request.")
        }
    }

    private func submitTask(_ descriptor: TaskRequestDescriptor, app: String) async -> ServerResponse {
        guard !descriptor.identifier.isEmpty, descriptor.identifier.utf8.count <= 255 else {
            return taskFailure(3, "A task identifier must be 1 to 255 bytes long; use the reverse-DNS identifier listed in BGTaskSchedulerPermittedIdentifiers.")
        }
        guard let permission = await taskPermission(of: app) else {
            return taskFailure(1, "\(app) is not installed, so it cannot schedule background work; run backgroundassets-debug install first.")
        }
        if let refusal = permission.refusalToSubmit(descriptor.identifier, kind: descriptor.kind) { return taskFailure(3, refusal) }
        guard settings.allowsBackgroundAppRefresh(for: app) else {
            return taskFailure(1, "Background App Refresh is off for \(app), so it cannot schedule background work; turn it on with backgroundassets-debug settings --background-refresh on.")
        }
        let pending = (try? await taskStore.all()) ?? []
        let sameKind = pending.filter {
            $0.bundleIdentifier == app && $0.request.kind == descriptor.kind && $0.request.identifier != descriptor.identifier
        }
        guard sameKind.count < descriptor.kind.pendingLimit else {
            return taskFailure(2, "\(app) already has \(sameKind.count) pending \(descriptor.kind == .appRefresh ? "refresh" : "processing") request(s), the most allowed; cancel one (\(sameKind.map(\.request.identifier).joined(separator: ", "))) before submitting another.")
        }
        // The app's dates are its wall clock; the device's clock may run faster (timeScale). A request
        // for "in 15 minutes" means 15 minutes of device time from now.
        let deviceNow = clock.deviceTime(at: .now)
        var request = descriptor
        request.earliestBeginDate = descriptor.earliestBeginDate.map { deviceNow.addingTimeInterval($0.timeIntervalSinceNow) }
        let task = PendingTask(bundleIdentifier: app, request: request, submitted: deviceNow)
        do {
            try await taskStore.save(task)
        } catch {
            return taskFailure(1, "The service could not store the request: \(error).")
        }
        trace.append(.init(from: "app", to: "backgroundassetsd", event: "submitTaskRequest", app: app, detail: "\(descriptor.identifier) (\(descriptor.kind.rawValue))"))
        scheduleTasks()
        return .done
    }

    /// The Background Tasks the installed app's Info.plist permits, or `nil` when it is not installed.
    private func taskPermission(of app: String) async -> TaskPermission? {
        guard let installed = try? await registry.app(app) else { return nil }
        return installed.bundle.app.taskPermission ?? TaskPermission(permittedIdentifiers: [], backgroundModes: [])
    }

    // MARK: - Running tasks

    /// Re-evaluates the pending tasks after anything that may change when they run.
    func scheduleTasks() {
        taskTimer?.cancel()
        taskTimer = Task { [weak self] in await self?.runTasks() }
    }

    /// Hands every ready task to its app, expires and ends running ones, then sleeps until the next change.
    private func runTasks() async {
        while !Task.isCancelled {
            let now = Date.now
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
                case let .waiting(until):
                    wakeUp.append(clock.realTime(at: until))
                case .blocked:
                    continue
                }
            }
            // Tasks launched just now are running too: their expiration and deadline wake the loop.
            wakeUp += taskHost.runningTasks.map { $0.hasExpired ? $0.deadline : $0.expiresAt }
            guard let next = wakeUp.min() else { return }
            let delay = min(max(next.timeIntervalSinceNow, 0.001), 3600)
            try? await Task.sleep(for: .seconds(fractional: delay))
        }
    }

    /// Whether a pending task may run now, as `status` and the runner see it.
    func eligibility(of task: PendingTask) async -> TaskEligibility {
        let installed = try? await registry.app(task.bundleIdentifier)
        let launchable = installed?.state == .launchable && installs[task.bundleIdentifier] == nil
        let now = clock.deviceTime(at: .now)
        var usage: RefreshUsage?
        if let app = installed {
            usage = RefreshUsage(
                periodicInterval: periodicSchedule.interval(launches: app.launchHistory, installDate: app.installDate, now: now),
                lastRefresh: try? await taskStore.lastRefresh(app: app.bundleIdentifier))
        }
        return TaskEligibility.of(task, settings: settings, isLaunchable: launchable, usage: usage, now: now)
    }

    /// Runs one ready task in the connection that registered its handler, or launches the app for it.
    private func launch(_ task: PendingTask) async {
        let app = task.bundleIdentifier
        guard !taskHost.isRunning(app: app, identifier: task.request.identifier) else { return }
        guard let connection = taskHost.handler(app: app, identifier: task.request.identifier),
            let session = sessions[connection], ProcessLiveness.isRunning(session.connection.peer.processIdentifier)
        else {
            await launchAppInBackground(app)
            return
        }
        // Started before the first suspension: a runner that interleaves here sees the task running,
        // so it neither launches it twice nor forgets to wake for its expiration.
        let limit = task.request.kind == .appRefresh ? configuration.appRefreshRuntimeLimit : configuration.processingRuntimeLimit
        let running = taskHost.start(task.request, app: app, connection: connection, now: .now, limit: limit)
        trace.append(.init(from: "backgroundassetsd", to: "app", event: "launchTask", app: app, detail: "\(task.request.identifier) (\(task.request.kind.rawValue), \(limit.formatted()) s)"))
        session.connection.send(.event(.launchTask(taskID: running.taskID, request: task.request)))
        _ = try? await taskStore.remove(app: app, identifier: task.request.identifier)
        if task.request.kind == .appRefresh { try? await taskStore.recordRefresh(app: app, at: clock.deviceTime(at: .now)) }
    }

    /// Asks running tasks near their limit to expire, and ends those past it.
    private func expireRunningTasks(now: Date) async {
        for task in taskHost.runningTasks {
            if task.deadline <= now {
                _ = taskHost.removeTask(task.taskID)
                let killed = backgroundLaunches[task.bundleIdentifier] != nil
                let reason = "\(task.request.identifier) ran past its \(task.limit.formatted()) s runtime limit"
                trace.append(.init(from: "backgroundassetsd", to: "app", event: killed ? "taskKilled" : "taskEnded", app: task.bundleIdentifier, detail: reason))
                logger.error("The task \(reason) of \(task.bundleIdentifier); \(killed ? "its app was killed" : "it no longer counts as running").")
                lastTaskEnding[task.bundleIdentifier] = reason
                if killed { backgroundLaunches.removeValue(forKey: task.bundleIdentifier)?.kill() }
            } else if !task.hasExpired, task.expiresAt <= now {
                sendExpiration(task.taskID)
            }
        }
    }

    private func sendExpiration(_ taskID: UInt64) {
        guard let task = taskHost.expire(taskID: taskID), let session = sessions[task.connection] else { return }
        trace.append(.init(from: "backgroundassetsd", to: "app", event: "expireTask", app: task.bundleIdentifier, detail: task.request.identifier))
        session.connection.send(.event(.expireTask(taskID: taskID)))
    }

    // MARK: - Launching the app for its tasks

    /// Starts the app in the background so it can register its handlers; its tasks run once it has.
    private func launchAppInBackground(_ app: String) async {
        guard let installed = try? await registry.app(app) else { return }
        // Checked after the suspension above and set before the next one: one launch per app.
        guard backgroundLaunches[app] == nil else { return }
        var environment = ProcessInfo.processInfo.environment
        environment["BA_DEVICE_ROOT"] = paths.root.path
        environment["BA_BUNDLE_IDENTIFIER"] = app
        environment["BA_PROCESS_ROLE"] = Hello.Role.app.rawValue
        environment[Self.backgroundLaunchVariable] = "1"
        // Stands in for the app reading its Info.plist, as the extension's launch does.
        environment["BA_MANIFEST_URL"] = installed.bundle.app.manifestURL.absoluteString
        do {
            let process = try ExtensionProcess.launch(executable: installed.appExecutable, environment: environment) {
                [weak self] exit in
                Task { await self?.backgroundLaunchExited(app: app, exit) }
            }
            backgroundLaunches[app] = process
            trace.append(.init(from: "backgroundassetsd", to: "app", event: "launchInBackground", app: app, detail: "pid \(process.processIdentifier)"))
        } catch {
            logger.error("Could not launch \(app) in the background for its tasks: \(error)")
            lastTaskEnding[app] = "the app could not be launched in the background: \(error)"
        }
    }

    /// The environment variable that tells an app the service launched it for background tasks.
    static let backgroundLaunchVariable = "BG_TASK_BACKGROUND_LAUNCH"

    private func backgroundLaunchExited(app: String, _ exit: ExtensionProcess.Exit) {
        guard backgroundLaunches[app]?.processIdentifier == exit.processIdentifier else { return }
        backgroundLaunches[app] = nil
        trace.append(.init(from: "app", to: "backgroundassetsd", event: "backgroundLaunchEnded", app: app, detail: "\(exit)"))
    }

    /// Ends an app the service launched only for its tasks once none of them is running.
    private func endBackgroundLaunchIfIdle(app: String) {
        guard !taskHost.runningTasks.contains(where: { $0.bundleIdentifier == app }),
            let process = backgroundLaunches.removeValue(forKey: app)
        else { return }
        // From now on its downloads' events go to the extension, not to a process about to end.
        for (id, session) in sessions where session.connection.peer.processIdentifier == process.processIdentifier {
            sessions[id]?.hasDelegate = false
        }
        let peak = process.highWaterResidentBytes.map { "; peak memory \($0 >> 20) MiB" } ?? ""
        trace.append(.init(from: "backgroundassetsd", to: "app", event: "backgroundLaunchDone", app: app, detail: "pid \(process.processIdentifier)\(peak)"))
        process.terminate()
    }

    /// Ends the tasks of a closed connection: a crash of the app ends its tasks unsuccessfully.
    func tasksConnectionClosed(_ connection: UInt64) {
        for task in taskHost.connectionClosed(connection) {
            trace.append(.init(from: "app", to: "backgroundassetsd", event: "taskEnded", app: task.bundleIdentifier, detail: "\(task.request.identifier): the app's connection closed while it ran"))
            lastTaskEnding[task.bundleIdentifier] = "\(task.request.identifier) ended when the app's connection closed while it ran"
        }
    }

    // MARK: - The debug tool

    private func simulateTask(_ action: TaskSimulation, identifier: String, bundleIdentifier: String?) async -> ServerResponse {
        let installed: InstalledApp
        switch await resolveApp(bundleIdentifier) {
        case let .success(found): installed = found
        case let .failure(refusal): return refusal.response
        }
        let app = installed.bundleIdentifier
        switch action {
        case .launch:
            guard let task = ((try? await taskStore.all()) ?? []).first(where: { $0.bundleIdentifier == app && $0.request.identifier == identifier }) else {
                return failure(.downloadDoesNotExist, "\(app) has no pending request \(identifier.debugDescription); the app submits one with BGTaskScheduler.shared.submit(_:) (see backgroundassets-debug tasks).")
            }
            trace.append(.init(from: "tool", to: "backgroundassetsd", event: "simulateLaunchTask", app: app, detail: identifier))
            taskHost.force(app: app, identifier: identifier)
            await launch(task)
        case .expire:
            guard let task = taskHost.runningTask(app: app, identifier: identifier) else {
                return failure(.downloadDoesNotExist, "No task \(identifier.debugDescription) of \(app) is running; launch it first with backgroundassets-debug simulate --launch-task \(identifier).")
            }
            trace.append(.init(from: "tool", to: "backgroundassetsd", event: "simulateExpireTask", app: app, detail: identifier))
            sendExpiration(task.taskID)
        }
        return .done
    }

    /// Whether a pending task may run within `idleExitAfter`, so the service stays to run it.
    func hasTaskDueSoon(now: Date) async -> Bool {
        if !taskHost.runningTasks.isEmpty { return true }
        for task in (try? await taskStore.all()) ?? [] {
            switch await eligibility(of: task) {
            case .ready: return true
            case let .waiting(until) where clock.realTime(at: until).timeIntervalSince(now) < configuration.idleExitAfter:
                return true
            default: continue
            }
        }
        return false
    }

    /// Each pending request and each running task, for `status` and `tasks`.
    func taskStatuses() async -> [TaskStatus] {
        var statuses: [TaskStatus] = []
        for task in (try? await taskStore.all()) ?? [] {
            var summary = await eligibility(of: task).summary
            if summary == TaskEligibility.ready.summary, taskHost.handler(app: task.bundleIdentifier, identifier: task.request.identifier) == nil {
                summary = backgroundLaunches[task.bundleIdentifier] == nil
                    ? "may run now; the app will be launched in the background"
                    : "may run now; waiting for the app to register its launch handler"
            }
            statuses.append(TaskStatus(bundleIdentifier: task.bundleIdentifier, request: task.request, state: .pending, summary: summary))
        }
        for task in taskHost.runningTasks {
            let state = task.hasExpired
                ? "expiring: its expiration handler was asked to run; ends \(task.limit.formatted()) s after it started"
                : "running, \(Int(Date.now.timeIntervalSince(task.started))) s of its \(task.limit.formatted()) s"
            statuses.append(TaskStatus(bundleIdentifier: task.bundleIdentifier, request: task.request, state: .running, summary: state))
        }
        return statuses
    }
}
