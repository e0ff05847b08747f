/*
Abstract:
Tests of the service's Background Tasks parts on their own: when a task may run, who runs it, and what survives a restart.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Background Tasks on the service")
struct TaskSchedulingTests {
    static let app = "com.example.sessions"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func pending(
        _ identifier: String = "refresh", kind: TaskRequestDescriptor.Kind = .appRefresh, begin: Date? = nil,
        network: Bool = false, power: Bool = false
    ) -> PendingTask {
        PendingTask(
            bundleIdentifier: app,
            request: TaskRequestDescriptor(
                identifier: identifier, kind: kind, earliestBeginDate: begin, requiresNetworkConnectivity: network,
                requiresExternalPower: power),
            submitted: now)
    }

    @Test("A task runs no earlier than its earliest begin date")
    func earliestBeginDate() {
        let later = Self.now.addingTimeInterval(900)
        let task = Self.pending(begin: later)
        #expect(TaskEligibility.of(task, settings: DeviceSettings(), isLaunchable: true, now: Self.now) == .held(.earliestBegin(later)))
        #expect(TaskEligibility.of(task, settings: DeviceSettings(), isLaunchable: true, now: later) == .ready)
    }

    @Test("Refresh tasks are spaced by how much the app is used; an app unused for 28 days gets none")
    func usageSpacing() {
        let task = Self.pending()
        let settings = DeviceSettings()
        let often = RefreshUsage(periodicInterval: PeriodicSchedule.day / 2, lastRefresh: Self.now.addingTimeInterval(-3600))
        #expect(TaskEligibility.of(task, settings: settings, isLaunchable: true, usage: often, now: Self.now)
            == .held(.usage(notBefore: Self.now.addingTimeInterval(2 * 3600))))
        let first = RefreshUsage(periodicInterval: PeriodicSchedule.day, lastRefresh: nil)
        #expect(TaskEligibility.of(task, settings: settings, isLaunchable: true, usage: first, now: Self.now) == .ready)
        let unused = RefreshUsage(periodicInterval: nil, lastRefresh: nil)
        #expect(TaskEligibility.of(task, settings: settings, isLaunchable: true, usage: unused, now: Self.now) == .held(.appUnused))
        let processing = Self.pending("cleanup", kind: .processing)
        #expect(TaskEligibility.of(processing, settings: settings, isLaunchable: true, usage: unused, now: Self.now) == .ready)
    }

    @Test("No task runs in Low Power Mode, with refresh off for the device or the app, or before the app is launchable")
    func settingsGate() {
        var settings = DeviceSettings()
        let task = Self.pending()
        #expect(TaskEligibility.of(task, settings: settings, isLaunchable: false, now: Self.now) != .ready)
        settings.lowPowerMode = true
        #expect(TaskEligibility.of(task, settings: settings, isLaunchable: true, now: Self.now) == .held(.lowPowerMode))
        settings.lowPowerMode = false
        settings.backgroundAppRefreshByApp[Self.app] = false
        #expect(TaskEligibility.of(task, settings: settings, isLaunchable: true, now: Self.now) == .held(.backgroundRefreshOff))
    }

    @Test("A processing task that needs power or the network waits for them; a refresh task does not ask")
    func requirements() {
        var settings = DeviceSettings()
        settings.externalPower = false
        settings.networkReachable = false
        let power = Self.pending("cleanup", kind: .processing, power: true)
        let network = Self.pending("sync", kind: .processing, network: true)
        #expect(TaskEligibility.of(power, settings: settings, isLaunchable: true, now: Self.now) == .held(.needsExternalPower))
        #expect(TaskEligibility.of(network, settings: settings, isLaunchable: true, now: Self.now) == .held(.needsNetwork))
        #expect(TaskEligibility.of(Self.pending(), settings: settings, isLaunchable: true, now: Self.now) == .ready)
        settings.externalPower = true
        settings.networkReachable = true
        #expect(TaskEligibility.of(power, settings: settings, isLaunchable: true, now: Self.now) == .ready)
        #expect(TaskEligibility.of(network, settings: settings, isLaunchable: true, now: Self.now) == .ready)
    }

    @Test("A task runs where its handler is registered, expires before its limit, and ends with its connection")
    func host() throws {
        var host = TaskHost()
        host.force(app: Self.app, identifier: "refresh")
        #expect(host.isForced(app: Self.app, identifier: "refresh"))
        host.register(app: Self.app, identifier: "refresh", connection: 4)
        #expect(host.handler(app: Self.app, identifier: "refresh") == 4)
        let task = host.start(Self.pending().request, app: Self.app, connection: 4, now: Self.now, limit: 30)
        #expect(task.expiresAt == Self.now.addingTimeInterval(25))
        #expect(task.deadline == Self.now.addingTimeInterval(30))
        #expect(host.isRunning(app: Self.app, identifier: "refresh"))
        #expect(!host.isForced(app: Self.app, identifier: "refresh"), "a forced launch happens once")
        #expect(host.complete(taskID: task.taskID, connection: 5) == nil, "another connection cannot end it")
        #expect(host.expire(taskID: task.taskID)?.hasExpired == true)
        #expect(host.expire(taskID: task.taskID) == nil, "expiration is asked once")
        #expect(host.connectionClosed(4).map(\.taskID) == [task.taskID])
        #expect(host.handler(app: Self.app, identifier: "refresh") == nil)
        #expect(host.runningTasks.isEmpty)
    }

    @Test("Pending requests survive a restart; one per identifier; cancel removes them")
    func store() async throws {
        let folder = try TemporaryDirectory(prefix: "ba-tasks")
        let url = folder.appending("tasks.sqlite")
        let store = try TaskStore(url: url)
        try await store.save(Self.pending(begin: Self.now))
        try await store.save(Self.pending(begin: Self.now.addingTimeInterval(60)))
        try await store.save(Self.pending("cleanup", kind: .processing, network: true, power: true))
        let reopened = try TaskStore(url: url)
        let all = try await reopened.all()
        #expect(all.count == 2)
        #expect(all.first { $0.request.identifier == "refresh" }?.request.earliestBeginDate == Self.now.addingTimeInterval(60))
        #expect(all.first { $0.request.identifier == "cleanup" }?.request == Self.pending("cleanup", kind: .processing, network: true, power: true).request)
        #expect(try await reopened.remove(app: Self.app, identifier: "refresh") == 1)
        #expect(try await reopened.remove(app: Self.app, identifier: nil) == 1)
        #expect(try await reopened.all().isEmpty)
    }

    @Test("Putting the device clock back moves every request's dates and the last refresh back alike")
    func movesDeviceDates() async throws {
        let folder = try TemporaryDirectory(prefix: "ba-tasks")
        let store = try TaskStore(url: folder.appending("tasks.sqlite"))
        try await store.save(Self.pending(begin: Self.now))
        try await store.save(Self.pending("cleanup", kind: .processing, network: true, power: true))
        try await store.recordRefresh(app: Self.app, at: Self.now)
        let before = try await store.all()
        try await store.moveDeviceDates(by: -3600)
        let after = try await store.all()
        #expect(after.first { $0.request.identifier == "refresh" }?.request.earliestBeginDate == Self.now.addingTimeInterval(-3600))
        #expect(after.first { $0.request.identifier == "cleanup" }?.request.earliestBeginDate == nil)
        #expect(after.map { $0.submitted } == before.map { $0.submitted.addingTimeInterval(-3600) })
        #expect(try await store.lastRefresh(app: Self.app) == Self.now.addingTimeInterval(-3600))
    }

    @Test("The Info.plist decides which identifiers and kinds an app may use")
    func permission() {
        let permission = TaskPermission(infoDictionary: [
            "BGTaskSchedulerPermittedIdentifiers": ["refresh", "cleanup"], "UIBackgroundModes": ["fetch"],
        ])
        #expect(permission.refusalToSubmit("refresh", kind: .appRefresh) == nil)
        #expect(permission.refusalToSubmit("cleanup", kind: .processing)?.contains("\"processing\"") == true)
        #expect(permission.refusalToRegister("other")?.contains("BGTaskSchedulerPermittedIdentifiers") == true)
        #expect(TaskPermission(infoDictionary: ["BGTaskSchedulerPermittedIdentifiers": "refresh"]).permittedIdentifiers.isEmpty)
    }
}
