/*
Abstract:
Background Tasks on the service: the requests of apps and of the debug tool, checked and stored.
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

    /// Answers the Background Tasks requests of an app.
    func handleTaskRequest(_ request: ClientRequest.Tasks, hello: Hello, connection: UInt64) async -> ServerResponse {
        let app = hello.bundleIdentifier
        switch request {
        case let .submitTaskRequest(descriptor):
            guard hello.role == .app else {
                return taskFailure(1, "Background Tasks are not available to app extensions; submit the request from the app.")
            }
            if descriptor.kind == .continuedProcessing {
                return await submitContinuedProcessing(descriptor, app: app, connection: connection)
            }
            return await submitTask(descriptor, app: app)
        case let .cancelTaskRequests(identifier):
            let removed = ((try? await taskStore.remove(app: app, identifier: identifier)) ?? 0)
                + tasks.continuedCancelled(app: app, identifier: identifier)
            trace.append(.init(from: hello.role.rawValue, to: "backgroundassetsd", event: "cancelTaskRequest", app: app, detail: identifier ?? "all (\(removed))"))
            return .done
        case .fetchPendingTaskRequests:
            let pending = (try? await taskStore.all()) ?? []
            let deviceNow = deviceNow
            return .taskRequests(pending.filter { $0.bundleIdentifier == app }.map { task in
                var request = task.request
                request.earliestBeginDate = request.earliestBeginDate.map { wallClock.now.addingTimeInterval($0.timeIntervalSince(deviceNow)) }
                return request
            } + tasks.host.continuedQueue.entries(of: app).map(\.request))
        case let .registerTaskHandler(identifier):
            guard hello.role == .app else {
                return taskFailure(1, "Background Tasks are not available to app extensions; register launch handlers in the app.")
            }
            guard let permission = await taskPermission(of: app) else {
                return taskFailure(1, "\(app) is not installed, so it cannot run background tasks; run backgroundassets-debug install first.")
            }
            if let refusal = permission.refusalToRegister(identifier) { return taskFailure(3, refusal) }
            let actions = tasks.handlerRegistered(app: app, identifier: identifier, connection: connection)
            trace.append(.init(from: "app", to: "backgroundassetsd", event: "registerTaskHandler", app: app, detail: identifier))
            await perform(actions)
            return .done
        case let .taskCompleted(taskID, success):
            let (completed, actions) = tasks.taskCompleted(taskID: taskID, connection: connection)
            if let task = completed {
                trace.append(.init(from: "app", to: "backgroundassetsd", event: "taskCompleted", app: app, detail: "\(task.request.identifier) success \(success)"))
            }
            await perform(actions)
            return .done
        case let .reportTaskProgress(taskID, progress):
            tasks.progressReported(progress, taskID: taskID, connection: connection, now: wallClock.now)
            return .done
        }
    }

    private func submitTask(_ descriptor: TaskRequestDescriptor, app: String) async -> ServerResponse {
        let submission = TaskRunner.submission(
            of: descriptor, app: app, permission: await taskPermission(of: app), settings: settings,
            pending: (try? await taskStore.all()) ?? [], deviceNow: deviceNow, appNow: Date())
        let task: PendingTask
        switch submission {
        case let .refuse(code, message): return taskFailure(code, message)
        case let .accept(accepted): task = accepted
        }
        do {
            try await taskStore.save(task)
        } catch {
            return taskFailure(1, "The service could not store the request: \(error).")
        }
        trace.append(.init(from: "app", to: "backgroundassetsd", event: "submitTaskRequest", app: app, detail: "\(descriptor.identifier) (\(descriptor.kind.rawValue))"))
        return .done
    }

    /// Queues a continued-processing request, if Apple's rules admit it, to start as soon as there is room.
    private func submitContinuedProcessing(_ descriptor: TaskRequestDescriptor, app: String, connection: UInt64) async -> ServerResponse {
        guard let permission = await taskPermission(of: app) else {
            return taskFailure(1, "\(app) is not installed, so it cannot run background work; run backgroundassets-debug install first.")
        }
        guard settings.allowsBackgroundAppRefresh(for: app) else {
            return taskFailure(1, "Background App Refresh is off for \(app), so its continued-processing tasks are turned off; turn it on with backgroundassets-debug settings --background-refresh on.")
        }
        let isBackgroundLaunch = tasks.host.backgroundLaunch(of: app)?.processIdentifier == clients[connection]?.connection.peer.processIdentifier
        let admission = tasks.continuedAdmission(
            of: descriptor, app: app, permission: permission, connection: connection, isBackgroundLaunch: isBackgroundLaunch)
        if case let .refuse(code, message) = admission { return taskFailure(code, message) }
        let actions = tasks.continuedSubmitted(.init(bundleIdentifier: app, request: descriptor, connection: connection, submitted: wallClock.now))
        trace.append(.init(from: "app", to: "backgroundassetsd", event: "submitTaskRequest", app: app, detail: "\(descriptor.identifier) (\(descriptor.kind.rawValue))"))
        await perform(actions)
        return .done
    }

    /// The Background Tasks the installed app's Info.plist permits, or `nil` when it is not installed.
    func taskPermission(of app: String) async -> TaskPermission? {
        guard let installed = try? await registry.app(app) else { return nil }
        return installed.bundle.app.taskPermission ?? TaskPermission(permittedIdentifiers: [], backgroundModes: [])
    }

    // MARK: - The debug tool

    func simulateTask(_ action: TaskSimulation, identifier: String, bundleIdentifier: String?) async -> ServerResponse {
        let installed: InstalledApp
        switch await resolveApp(bundleIdentifier) {
        case let .success(found): installed = found
        case let .failure(refusal): return refusal.response
        }
        let app = installed.bundleIdentifier
        switch action {
        case .launch:
            if tasks.host.continuedQueue.entries(of: app).contains(where: { $0.request.identifier == identifier }) {
                trace.append(.init(from: "tool", to: "backgroundassetsd", event: "simulateLaunchTask", app: app, detail: identifier))
                await perform(tasks.startQueuedContinuedProcessing(forcing: identifier, now: wallClock.now, isConnected: { self.clients[$0] != nil }))
                return .done
            }
            guard let task = ((try? await taskStore.all()) ?? []).first(where: { $0.bundleIdentifier == app && $0.request.identifier == identifier }) else {
                return failure(.downloadDoesNotExist, "\(app) has no pending request \(identifier.debugSummary); the app submits one with BGTaskScheduler.shared.submit(_:) (see backgroundassets-debug tasks).")
            }
            trace.append(.init(from: "tool", to: "backgroundassetsd", event: "simulateLaunchTask", app: app, detail: identifier))
            await perform(tasks.launchForced(task, now: wallClock.now, isAlive: { self.isAlive($0) }))
        case .expire:
            guard let task = tasks.host.runningTask(app: app, identifier: identifier) else {
                return failure(.downloadDoesNotExist, "No task \(identifier.debugSummary) of \(app) is running; launch it first with backgroundassets-debug simulate --launch-task \(identifier).")
            }
            trace.append(.init(from: "tool", to: "backgroundassetsd", event: "simulateExpireTask", app: app, detail: identifier))
            await perform(tasks.expire(taskID: task.taskID))
        }
        return .done
    }

    /// Whether a pending task may run within `idleExitAfter`, so the service stays to run it.
    func hasTaskDueSoon(now: Date) async -> Bool {
        if tasks.hasWork { return true }
        return tasks.hasTaskDue(in: await pendingTasks(), within: configuration.idleExitAfter, now: now, clock: deviceClock)
    }

    /// Each pending request and each running task, for `status` and `tasks`.
    func taskStatuses() async -> [TaskStatus] {
        tasks.statuses(of: await pendingTasks(), now: wallClock.now)
    }

    /// The pending requests, each with whether it may run now.
    private func pendingTasks() async -> [TaskRunner.Pending] {
        var pending: [TaskRunner.Pending] = []
        for task in (try? await taskStore.all()) ?? [] {
            pending.append(TaskRunner.Pending(task: task, eligibility: await eligibility(of: task)))
        }
        return pending
    }
}
