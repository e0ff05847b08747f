/*
Abstract:
Tests for the Background Tasks runner: when a request runs and where, its expiration and deadline, its ends, and the wake-ups, with no process.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Background Tasks runner")
struct TaskRunnerTests {
    static let app = "com.example.sessions"
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let clock = DeviceClock(origin: t0)
    static let handler: UInt64 = 7

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    static func refresh(_ identifier: String = "com.example.sessions.refresh", notBefore: Date? = nil) -> PendingTask {
        PendingTask(bundleIdentifier: app,
                    request: TaskRequestDescriptor(identifier: identifier, kind: .appRefresh, earliestBeginDate: notBefore), submitted: t0)
    }

    static func runner() -> TaskRunner { TaskRunner(appRefreshLimit: 30, processingLimit: 300) }

    static func alive(_: UInt64) -> Bool { true }
    static func dead(_: UInt64) -> Bool { false }

    static func handed(_ actions: [TaskRunAction]) -> TaskHost.RunningTask? {
        for case let .handToConnection(task) in actions { return task }
        return nil
    }

    // MARK: - When a request runs

    @Test("A request runs only once its eligibility is ready; held, it asks to be woken when its hold ends, in real time")
    func heldThenReady() throws {
        var runner = Self.runner()
        _ = runner.handlerRegistered(app: Self.app, identifier: Self.refresh().request.identifier, connection: Self.handler)
        let task = Self.refresh(notBefore: Self.at(600))
        // Device time runs 60 times faster: its hold ends 10 real seconds from the origin.
        let fast = DeviceClock(origin: Self.t0, timeScale: 60)
        #expect(runner.pendingConsidered(task, eligibility: .held(.earliestBegin(Self.at(600))), now: Self.t0, clock: fast, isAlive: Self.alive)
            == [.wake(at: Self.at(10))])
        #expect(runner.pendingConsidered(task, eligibility: .held(.lowPowerMode), now: Self.t0, clock: Self.clock, isAlive: Self.alive).isEmpty,
                "a hold with no end waits for the inputs to change")
        #expect(runner.host.runningTasks.isEmpty)

        let actions = runner.pendingConsidered(task, eligibility: .ready, now: Self.at(600), clock: Self.clock, isAlive: Self.alive)
        let running = try #require(Self.handed(actions))
        #expect(running.connection == Self.handler && running.limit == 30 && running.started == Self.at(600))
        #expect(running.expiresAt == Self.at(625) && running.deadline == Self.at(630), "told to expire 5 s before its limit")
        #expect(runner.pendingConsidered(task, eligibility: .ready, now: Self.at(601), clock: Self.clock, isAlive: Self.alive).isEmpty,
                "a request does not run twice at once")
    }

    @Test("A ready request with no handler, or a handler in a process that is gone, launches its app in the background")
    func launchesTheApp() {
        var runner = Self.runner()
        let task = Self.refresh()
        #expect(runner.pendingConsidered(task, eligibility: .ready, now: Self.t0, clock: Self.clock, isAlive: Self.alive)
            == [.launchInBackground(app: Self.app)])
        _ = runner.handlerRegistered(app: Self.app, identifier: task.request.identifier, connection: Self.handler)
        #expect(runner.pendingConsidered(task, eligibility: .ready, now: Self.t0, clock: Self.clock, isAlive: Self.dead)
            == [.launchInBackground(app: Self.app)])
        #expect(runner.host.runningTasks.isEmpty)
    }

    @Test("A request the tool forced runs whatever holds it, with a processing task's limit")
    func forced() throws {
        var runner = Self.runner()
        let task = PendingTask(bundleIdentifier: Self.app, request: .init(identifier: "com.example.sessions.cleanup", kind: .processing,
                                                                          requiresExternalPower: true), submitted: Self.t0)
        #expect(runner.launchForced(task, now: Self.t0, isAlive: Self.alive) == [.launchInBackground(app: Self.app)])
        _ = runner.handlerRegistered(app: Self.app, identifier: task.request.identifier, connection: Self.handler)
        let actions = runner.pendingConsidered(task, eligibility: .held(.needsExternalPower), now: Self.at(1), clock: Self.clock, isAlive: Self.alive)
        #expect(try #require(Self.handed(actions)).limit == 300)
        #expect(!runner.host.isForced(app: Self.app, identifier: task.request.identifier), "forced once")
    }

    // MARK: - How a run ends

    @Test("A running task is asked to expire once near its limit, and ends at it; the app launched for it is killed")
    func expiresThenEnds() throws {
        var runner = Self.runner()
        let task = Self.refresh()
        _ = runner.handlerRegistered(app: Self.app, identifier: task.request.identifier, connection: Self.handler)
        let runningResult = Self.handed(runner.pendingConsidered(task, eligibility: .ready, now: Self.t0, clock: Self.clock, isAlive: Self.alive))
        let running = try #require(runningResult)
        #expect(runner.passEnded(now: Self.t0, isConnected: Self.alive) == [.wake(at: Self.at(25))])
        #expect(runner.timeReached(now: Self.at(24)).isEmpty)

        var expired = running
        expired.hasExpired = true
        #expect(runner.timeReached(now: Self.at(25)) == [.expire(expired)])
        #expect(runner.timeReached(now: Self.at(26)).isEmpty, "asked to expire once")
        #expect(runner.expire(taskID: running.taskID).isEmpty, "the tool's expiration too")
        #expect(runner.passEnded(now: Self.at(26), isConnected: Self.alive) == [.wake(at: Self.at(30))], "then it wakes for the deadline")

        let process = try ExtensionProcess.launch(executable: URL(fileURLWithPath: "/bin/true"), environment: [:]) { _ in }
        runner.launchedInBackground(process, app: Self.app)
        let reason = "com.example.sessions.refresh ran past its 30 s runtime limit"
        #expect(runner.timeReached(now: Self.at(30)) == [.endedAtDeadline(expired, reason: reason, killsApp: true)])
        #expect(runner.host.lastEnding(of: Self.app) == reason)
        #expect(runner.taskCompleted(taskID: running.taskID, connection: Self.handler).task == nil, "a run ends once")
        #expect(runner.timeReached(now: Self.at(31)).isEmpty)
        #expect(runner.passEnded(now: Self.at(31), isConnected: Self.alive).isEmpty, "nothing left to wake for")
    }

    @Test("A completed task ends once; its deadline passing later does nothing, and its app's background launch may end")
    func completes() throws {
        var runner = Self.runner()
        let task = Self.refresh()
        _ = runner.handlerRegistered(app: Self.app, identifier: task.request.identifier, connection: Self.handler)
        let runningResult = Self.handed(runner.pendingConsidered(task, eligibility: .ready, now: Self.t0, clock: Self.clock, isAlive: Self.alive))
        let running = try #require(runningResult)
        #expect(runner.taskCompleted(taskID: running.taskID, connection: Self.handler + 1).task == nil, "only its connection completes it")
        let completed = runner.taskCompleted(taskID: running.taskID, connection: Self.handler)
        #expect(completed.task == running && completed.actions == [.endBackgroundLaunchIfIdle(app: Self.app)])
        #expect(runner.taskCompleted(taskID: running.taskID, connection: Self.handler).task == nil)
        #expect(runner.timeReached(now: Self.at(60)).isEmpty)
        #expect(runner.host.lastEnding(of: Self.app) == nil, "an ordinary end is not a forced one")
    }

    @Test("When the app's connection closes, its running tasks end and its queued continued-processing requests are dropped")
    func appDied() throws {
        var runner = Self.runner()
        let task = Self.refresh()
        _ = runner.handlerRegistered(app: Self.app, identifier: task.request.identifier, connection: Self.handler)
        let runningResult = Self.handed(runner.pendingConsidered(task, eligibility: .ready, now: Self.t0, clock: Self.clock, isAlive: Self.alive))
        let running = try #require(runningResult)
        let queued = ContinuedProcessingQueue.Entry(bundleIdentifier: Self.app, request: ContinuedProcessingTests.request("q"),
                                                    connection: Self.handler, submitted: Self.t0)
        // Two continued tasks of another app, submitted first, fill the room, so the app's waits.
        for (index, connection) in [UInt64(20), 21].enumerated() {
            _ = runner.continuedSubmitted(.init(bundleIdentifier: "com.example.other", request: ContinuedProcessingTests.request("o\(index)"),
                                               connection: connection, submitted: Self.t0))
        }
        #expect(runner.continuedSubmitted(queued) == [.reconsider])
        let started = runner.passEnded(now: Self.t0, isConnected: Self.alive)
        #expect(started.filter { if case .startContinued = $0 { true } else { false } }.count == 2)
        #expect(runner.host.continuedQueue.all == [queued], "no room for the third")

        #expect(runner.connectionClosed(Self.handler) == [.droppedQueued(queued), .endedWithConnection(running), .reconsider])
        #expect(runner.host.lastEnding(of: Self.app) == "com.example.sessions.refresh ended when the app's connection closed while it ran")
        #expect(runner.host.handler(app: Self.app, identifier: task.request.identifier) == nil)
        #expect(runner.taskCompleted(taskID: running.taskID, connection: Self.handler).task == nil, "a run ends once")
        #expect(!runner.host.runningTasks.contains { $0.taskID == running.taskID })
    }

    @Test("Queued continued-processing requests start first submitted first while there is room; the tool's starts whatever the room")
    func continuedQueue() throws {
        var runner = Self.runner()
        for name in ["a", "b", "c"] {
            _ = runner.continuedSubmitted(.init(bundleIdentifier: Self.app, request: ContinuedProcessingTests.request(name), connection: Self.handler, submitted: Self.t0))
        }
        let first = runner.passEnded(now: Self.t0, isConnected: Self.alive)
        let startedIDs = first.compactMap { if case let .startContinued(task) = $0 { task.request.identifier } else { nil } }
        #expect(startedIDs == ["com.example.sessions.export.a", "com.example.sessions.export.b"])
        #expect(first.contains(.wake(at: Self.at(60))), "a stalled task is due to expire after the stall timeout")
        let forced = runner.startQueuedContinuedProcessing(forcing: "com.example.sessions.export.c", now: Self.t0, isConnected: Self.alive)
        #expect(forced.count == 1 && runner.host.runningCount(of: .continuedProcessing) == 3)

        var gone = Self.runner()
        _ = gone.continuedSubmitted(.init(bundleIdentifier: Self.app, request: ContinuedProcessingTests.request("d"), connection: 99, submitted: Self.t0))
        #expect(gone.passEnded(now: Self.t0, isConnected: Self.dead).isEmpty, "an app that has gone starts nothing")
        #expect(gone.host.continuedQueue.all.isEmpty)
    }

    @Test("A continued-processing task that does not complete within the grace of its expiration ends, and its app stays")
    func continuedEndsWithoutKill() throws {
        var runner = Self.runner()
        _ = runner.continuedSubmitted(.init(bundleIdentifier: Self.app, request: ContinuedProcessingTests.request("a"), connection: Self.handler, submitted: Self.t0))
        _ = runner.passEnded(now: Self.t0, isConnected: Self.alive)
        let process = try ExtensionProcess.launch(executable: URL(fileURLWithPath: "/bin/true"), environment: [:]) { _ in }
        runner.launchedInBackground(process, app: Self.app)
        #expect(runner.timeReached(now: Self.at(60)).count == 1, "expired at the stall timeout")
        let ended = runner.timeReached(now: Self.at(65))
        guard case let .endedAtDeadline(_, reason, killsApp)? = ended.first else {
            Issue.record("the task must end at its deadline: \(ended)")
            return
        }
        #expect(!killsApp && reason == "com.example.sessions.export.a did not complete within 5 s of its expiration")
    }

    @Test("A background launch ends only when none of its app's tasks runs and nothing else keeps it; its handlers go with it")
    func backgroundLaunchEnds() throws {
        var runner = Self.runner()
        let task = Self.refresh()
        let process = try ExtensionProcess.launch(executable: URL(fileURLWithPath: "/bin/true"), environment: [:]) { _ in }
        runner.launchedInBackground(process, app: Self.app)
        _ = runner.handlerRegistered(app: Self.app, identifier: task.request.identifier, connection: Self.handler)
        let runningResult = Self.handed(runner.pendingConsidered(task, eligibility: .ready, now: Self.t0, clock: Self.clock, isAlive: Self.alive))
        let running = try #require(runningResult)
        #expect(runner.endBackgroundLaunchIfIdle(app: Self.app, keptElsewhere: false, connections: { _ in [Self.handler] }) == nil, "a task runs")
        _ = runner.taskCompleted(taskID: running.taskID, connection: Self.handler)
        #expect(runner.endBackgroundLaunchIfIdle(app: Self.app, keptElsewhere: true, connections: { _ in [Self.handler] }) == nil, "a session keeps it")
        let ended = runner.endBackgroundLaunchIfIdle(app: Self.app, keptElsewhere: false, connections: { _ in [Self.handler] })
        #expect(ended?.processIdentifier == process.processIdentifier)
        #expect(runner.host.handler(app: Self.app, identifier: task.request.identifier) == nil, "its next task launches the app again")
        #expect(runner.host.backgroundLaunch(of: Self.app) == nil)
    }

    // MARK: - What status and the idle exit read

    @Test("The service stays while a task runs or waits for room, or a pending one may run within the window")
    func dueSoon() {
        var runner = Self.runner()
        #expect(!runner.hasWork)
        let ready = TaskRunner.Pending(task: Self.refresh(), eligibility: .ready)
        let later = TaskRunner.Pending(task: Self.refresh(notBefore: Self.at(100)), eligibility: .held(.earliestBegin(Self.at(100))))
        let unending = TaskRunner.Pending(task: Self.refresh(), eligibility: .held(.lowPowerMode))
        #expect(runner.hasTaskDue(in: [ready], within: 60, now: Self.t0, clock: Self.clock))
        #expect(!runner.hasTaskDue(in: [later, unending], within: 60, now: Self.t0, clock: Self.clock))
        #expect(runner.hasTaskDue(in: [later], within: 120, now: Self.t0, clock: Self.clock))
        _ = runner.continuedSubmitted(.init(bundleIdentifier: Self.app, request: ContinuedProcessingTests.request("a"), connection: Self.handler, submitted: Self.t0))
        #expect(runner.hasWork)
    }

    @Test("status says whether a ready request launches its app or waits for its handler, and which rule holds the others")
    func statuses() {
        var runner = Self.runner()
        let ready = TaskRunner.Pending(task: Self.refresh(), eligibility: .ready)
        let later = TaskRunner.Pending(task: Self.refresh("com.example.sessions.later", notBefore: Self.at(100)),
                                       eligibility: .held(.earliestBegin(Self.at(100))))
        var statuses = runner.statuses(of: [ready, later], now: Self.t0)
        #expect(statuses.map(\.summary).first == "may run now; the app will be launched in the background")
        #expect(statuses.last?.waitingFor == "earliestBegin" && statuses.last?.notBefore == Self.at(100))
        _ = runner.handlerRegistered(app: Self.app, identifier: ready.task.request.identifier, connection: Self.handler)
        _ = runner.pendingConsidered(ready.task, eligibility: .ready, now: Self.t0, clock: Self.clock, isAlive: Self.alive)
        statuses = runner.statuses(of: [], now: Self.at(10))
        #expect(statuses.map(\.state) == [.running] && statuses.first?.summary == "running, 10 s of its 30 s")
    }

    // MARK: - A request submitted

    @Test("A refresh or processing request is kept only with a valid identifier, the app installed and permitting it, refresh on and room for its kind")
    func submission() {
        let permission = TaskPermission(permittedIdentifiers: ["com.example.sessions.refresh", "com.example.sessions.other"], backgroundModes: ["fetch"])
        let request = TaskRequestDescriptor(identifier: "com.example.sessions.refresh", kind: .appRefresh, earliestBeginDate: Self.at(900))
        let deviceNow = Self.at(86_400)
        func submit(_ descriptor: TaskRequestDescriptor = request, permission: TaskPermission? = permission,
                    settings: DeviceSettings = DeviceSettings(), pending: [PendingTask] = []) -> TaskRunner.Submission {
            TaskRunner.submission(of: descriptor, app: Self.app, permission: permission, settings: settings, pending: pending,
                                  deviceNow: deviceNow, appNow: Self.t0)
        }
        func code(_ submission: TaskRunner.Submission) -> Int? {
            if case let .refuse(code, _) = submission { code } else { nil }
        }
        #expect(code(submit(TaskRequestDescriptor(identifier: "", kind: .appRefresh))) == 3)
        #expect(code(submit(TaskRequestDescriptor(identifier: String(repeating: "a", count: 256), kind: .appRefresh))) == 3)
        #expect(code(submit(permission: nil)) == 1, "not installed")
        #expect(code(submit(TaskRequestDescriptor(identifier: "com.example.sessions.unlisted", kind: .appRefresh))) == 3)
        #expect(code(submit(TaskRequestDescriptor(identifier: "com.example.sessions.refresh", kind: .processing))) == 3,
                "processing needs its background mode")
        var off = DeviceSettings()
        off.backgroundAppRefreshByApp[Self.app] = false
        #expect(code(submit(settings: off)) == 1)
        let other = PendingTask(bundleIdentifier: Self.app, request: .init(identifier: "com.example.sessions.other", kind: .appRefresh), submitted: Self.t0)
        #expect(code(submit(pending: [other])) == 2, "one refresh request per app")
        #expect(code(submit(pending: [Self.refresh()])) == nil, "the same identifier replaces itself")

        // Its earliest begin date, 15 minutes ahead on the app's clock, is 15 minutes of device time ahead.
        var kept = request
        kept.earliestBeginDate = deviceNow.addingTimeInterval(900)
        #expect(submit() == .accept(PendingTask(bundleIdentifier: Self.app, request: kept, submitted: deviceNow)))
    }

    @Test("A continued-processing request is admitted from the connection with its launch handler, registered for its prefix.* entry")
    func continuedAdmission() {
        var runner = Self.runner()
        let request = ContinuedProcessingTests.request("1")
        let permission = ContinuedProcessingTests.permission
        #expect(runner.continuedAdmission(of: request, app: Self.app, permission: permission, connection: Self.handler, isBackgroundLaunch: false)
            != .accept, "no launch handler")
        _ = runner.handlerRegistered(app: Self.app, identifier: "com.example.sessions.export.*", connection: Self.handler)
        #expect(runner.continuedAdmission(of: request, app: Self.app, permission: permission, connection: Self.handler, isBackgroundLaunch: false)
            == .accept)
        #expect(runner.continuedAdmission(of: request, app: Self.app, permission: permission, connection: Self.handler + 1, isBackgroundLaunch: false)
            != .accept, "the handler is in another process")
        #expect(runner.continuedAdmission(of: request, app: Self.app, permission: permission, connection: Self.handler, isBackgroundLaunch: true)
            != .accept, "not from a background launch")
    }
}
