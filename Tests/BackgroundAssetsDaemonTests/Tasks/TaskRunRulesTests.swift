/*
Abstract:
Tests of when a pending task may run: spacing between runs of one identifier, the app in the foreground, and which rule `tasks` names.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Background Tasks run rules")
struct TaskRunRulesTests {
    static let app = "com.example.sessions"
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let spacing: TimeInterval = 15 * 60

    static func pending(
        _ identifier: String = "cleanup", kind: TaskRequestDescriptor.Kind = .processing, begin: Date? = nil,
        network: Bool = false, power: Bool = false
    ) -> PendingTask {
        PendingTask(
            bundleIdentifier: app,
            request: TaskRequestDescriptor(
                identifier: identifier, kind: kind, earliestBeginDate: begin, requiresNetworkConnectivity: network,
                requiresExternalPower: power),
            submitted: start)
    }

    static func decide(
        _ task: PendingTask, lastRun: Date? = nil, usage: RefreshUsage? = nil, foreground: Bool = false,
        settings: DeviceSettings = DeviceSettings(), at now: Date
    ) -> TaskEligibility {
        TaskEligibility.of(
            task, settings: settings, isLaunchable: true, usage: usage, lastRun: lastRun, spacing: spacing,
            isAppInForeground: foreground, now: now)
    }

    @Test("A request submitted again by its launch handler waits the spacing after the run, on the accelerated device clock")
    func resubmittedRequestWaitsTheSpacing() {
        // A device minute per real second, as the tutorial's tests run: 15 device minutes pass in 15 real seconds.
        let clock = DeviceClock(origin: Self.start, timeScale: 60)
        let ran = clock.deviceTime(at: Self.start)
        let again = Self.pending()
        let nextRun = ran.addingTimeInterval(Self.spacing)
        // The handler resubmits at once: the request is held, not run back to back.
        #expect(Self.decide(again, lastRun: ran, at: clock.deviceTime(at: Self.start)) == .held(.spacing(notBefore: nextRun)))
        #expect(clock.realTime(at: nextRun) == Self.start.addingTimeInterval(15))
        let justBefore = clock.deviceTime(at: Self.start.addingTimeInterval(14.9))
        #expect(Self.decide(again, lastRun: ran, at: justBefore) == .held(.spacing(notBefore: nextRun)))
        #expect(Self.decide(again, lastRun: ran, at: clock.deviceTime(at: Self.start.addingTimeInterval(15))) == .ready)
        // Spacing 0 turns the rule off.
        #expect(TaskEligibility.of(again, settings: DeviceSettings(), isLaunchable: true, lastRun: ran, spacing: 0, now: ran) == .ready)
        // A request whose identifier never ran is not spaced.
        #expect(Self.decide(again, at: ran) == .ready)
    }

    @Test("No task runs while its app is in the foreground; it runs once the app has left")
    func foregroundHolds() {
        let now = Self.start
        #expect(Self.decide(Self.pending(), foreground: true, at: now) == .held(.appInForeground))
        #expect(Self.decide(Self.pending("refresh", kind: .appRefresh), foreground: true, at: now) == .held(.appInForeground))
        #expect(Self.decide(Self.pending(), foreground: false, at: now) == .ready)
        // A date still ahead is the first thing to wait for: it says when the task may run at all.
        let later = now.addingTimeInterval(600)
        #expect(Self.decide(Self.pending(begin: later), foreground: true, at: now) == .held(.earliestBegin(later)))
        #expect(Self.decide(Self.pending(begin: later), foreground: true, at: later) == .held(.appInForeground))
    }

    @Test("Of the time rules, the one that ends last holds the task; requirements come before time")
    func latestTimeRuleHolds() {
        let now = Self.start
        let ran = now.addingTimeInterval(-60)
        let spaced = ran.addingTimeInterval(Self.spacing)
        let soon = now.addingTimeInterval(120)
        let late = now.addingTimeInterval(3600)
        #expect(Self.decide(Self.pending(begin: soon), lastRun: ran, at: now) == .held(.spacing(notBefore: spaced)))
        #expect(Self.decide(Self.pending(begin: late), lastRun: ran, at: now) == .held(.earliestBegin(late)))
        // A refresh task's usage spacing (a quarter of a 12-hour periodic interval) outlasts both.
        let usage = RefreshUsage(periodicInterval: 12 * 3600, lastRefresh: ran)
        let refresh = Self.pending("refresh", kind: .appRefresh, begin: soon)
        #expect(Self.decide(refresh, lastRun: ran, usage: usage, at: now) == .held(.usage(notBefore: ran.addingTimeInterval(3 * 3600))))
        var settings = DeviceSettings()
        settings.externalPower = false
        settings.networkReachable = false
        #expect(Self.decide(Self.pending(begin: late, power: true), settings: settings, at: now) == .held(.needsExternalPower))
        #expect(Self.decide(Self.pending(begin: late, network: true), settings: settings, at: now) == .held(.needsNetwork))
        #expect(TaskHold.needsNetwork.until == nil && TaskHold.appInForeground.until == nil)
        #expect(TaskHold.spacing(notBefore: spaced).until == spaced)
    }

    @Test("tasks names the rule that holds each request, with its date in device time")
    func summariesNameTheRule() {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(TaskEligibility.held(.earliestBegin(date)).summary == "waiting: earliest begin 2027-01-15T08:00:00Z (device time)")
        #expect(TaskHold.spacing(notBefore: date).summary == "waiting: spacing, next run not before 2027-01-15T08:00:00Z (device time)")
        #expect(TaskHold.appInForeground.summary.hasPrefix("waiting: app in the foreground"))
        #expect(TaskHold.needsExternalPower.summary.hasPrefix("waiting: needs external power"))
        #expect(TaskHold.needsNetwork.summary.hasPrefix("waiting: needs network"))
        #expect(TaskHold.spacing(notBefore: date).rule == "spacing" && TaskHold.appInForeground.rule == "appInForeground")
        #expect(TaskEligibility.ready.summary == "may run now")
    }

    @Test("taskRunSpacing comes from config.json: 15 minutes by default, 0 turns it off, a negative value is refused by name")
    func spacingKnob() throws {
        let folder = try TemporaryDirectory(prefix: "ba-config")
        let file = folder.appending("config.json")
        #expect(try ServiceConfiguration.load(from: file).taskRunSpacing == 900)
        try Data(#"{"taskRunSpacing": 0}"#.utf8).write(to: file)
        #expect(try ServiceConfiguration.load(from: file).taskRunSpacing == 0)
        try Data(#"{"taskRunSpacing": -5}"#.utf8).write(to: file)
        let error = try #require(throws: ConfigurationError.self) { try ServiceConfiguration.load(from: file) }
        #expect(error.key == "taskRunSpacing")
    }

    @Test("Each identifier's last run is kept, moves with the device clock, and opens from a version 1 store")
    func lastRunsAreDurable() async throws {
        let folder = try TemporaryDirectory(prefix: "ba-tasks")
        let url = folder.appending("tasks.sqlite")
        do {
            let old = try SQLiteDatabase(path: url.path)
            try old.execute(TaskStore.migrations[0])
            try old.execute("PRAGMA user_version = 1")
            old.close()
        }
        let store = try TaskStore(url: url)
        #expect(try await store.lastRun(app: Self.app, identifier: "cleanup") == nil)
        try await store.recordRun(app: Self.app, identifier: "cleanup", at: Self.start)
        try await store.recordRun(app: Self.app, identifier: "refresh", at: Self.start.addingTimeInterval(5))
        try await store.moveDeviceDates(by: -60)
        let reopened = try TaskStore(url: url)
        #expect(try await reopened.lastRun(app: Self.app, identifier: "cleanup") == Self.start.addingTimeInterval(-60))
        #expect(try await reopened.lastRun(app: Self.app, identifier: "refresh") == Self.start.addingTimeInterval(-55))
        #expect(try await reopened.lastRun(app: "com.example.other", identifier: "cleanup") == nil)
    }
}
