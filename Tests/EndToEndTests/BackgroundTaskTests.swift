/*
Abstract:
Background Tasks with the real processes: the service schedules, launches the app in the background, expires and ends tasks.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Background Tasks", .serialized, .timeLimit(.minutes(3)))
struct BackgroundTaskTests {
    static let refresh = "com.example.lifecycle-test.refresh"
    static let cleanup = "com.example.lifecycle-test.cleanup"
    static let secondRefresh = "com.example.lifecycle-test.refresh2"
    static let exports = "com.example.lifecycle-test.export.*"

    /// One line of `task-test-app.log`.
    struct Event: Equatable {
        var name: String
        var identifier: String
        var pid: Int32
        var inBackground: Bool
    }

    /// Installs `task-test-app` with both identifiers permitted, runs `body`, then kills any app the test left.
    func withTaskApp(
        configuration: [String: Double] = [:], behaviour: String = "",
        _ body: (LifecycleScenario) async throws -> Void
    ) async throws {
        try await withLifecycle(sessions: 2, configuration: ["timeScale": 60].merging(configuration) { $1 }) { original in
            var scenario = original
            scenario.bundle.appExecutable = "task-test-app"
            scenario.bundle.permittedTaskIdentifiers = [Self.refresh, Self.cleanup, Self.secondRefresh, Self.exports]
            scenario.bundle.backgroundModes = ["fetch", "processing"]
            try FileManager.default.createDirectory(at: scenario.container, withIntermediateDirectories: true)
            try Data(behaviour.utf8).write(to: scenario.container.appending(path: "task-behaviour"))
            defer {
                for pid in Set(events(in: scenario).map(\.pid)) where isProcessAlive(pid) { kill(pid, SIGKILL) }
            }
            try await scenario.installAndWait()
            try await body(scenario)
        }
    }

    func events(in scenario: LifecycleScenario) -> [Event] {
        let text = (try? String(contentsOf: scenario.container.appending(path: "task-test-app.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 4, let pid = Int32(fields[2]) else { return nil }
            return Event(name: fields[0], identifier: fields[1], pid: pid, inBackground: fields[3] == "background")
        }
    }

    func waitForEvent(
        _ name: String, _ identifier: String, in scenario: LifecycleScenario, timeout: Duration = .seconds(30)
    ) async throws -> Event {
        try await poll(timeout: timeout, interval: .milliseconds(20), "the app to log \(name) \(identifier)") {
            events(in: scenario).first { $0.name == name && $0.identifier == identifier }
        }
    }

    /// Runs the app in the foreground with arguments and `--exit`, as a person starting it would.
    func runApp(_ arguments: [String], in scenario: LifecycleScenario) async throws {
        let app = try scenario.launchApp(arguments + ["--exit"])
        let status = try await app.waitForExit()
        #expect(status.isSuccess, "task-test-app \(arguments) ended with \(status)")
    }

    @Test("A refresh request runs no earlier than its earliest begin date, in the app launched in the background")
    func refreshRunsInBackgroundLaunch() async throws {
        try await withTaskApp { scenario in
            let submitted = ContinuousClock.now
            // 300 device seconds at timeScale 60: five real seconds.
            try await runApp(["--submit", "refresh:300"], in: scenario)
            let listed = try await scenario.tool(["tasks"]).standardOutput
            // A listing made before the earliest begin date shows the request pending; on a machine
            // busy enough to take five seconds over the two commands, the task may have run already.
            if ContinuousClock.now - submitted < .seconds(5) {
                #expect(listed.contains(Self.refresh) && listed.contains("refresh, pending, earliest"), "\(listed)")
            }
            let launch = try await waitForEvent("launch", Self.refresh, in: scenario)
            let waited = ContinuousClock.now - submitted
            #expect(waited >= .seconds(5), "the task ran \(waited) after it was submitted for 5 s later")
            #expect(launch.inBackground)
            _ = try await waitForEvent("complete", Self.refresh, in: scenario)
            // The service ends an app it launched only for its tasks once none is left.
            try await poll(until: { !isProcessAlive(launch.pid) }, "the background launch to end")
            let trace = scenario.trace().map(\.event)
            for event in ["submitTaskRequest", "launchInBackground", "registerTaskHandler", "launchTask", "taskCompleted", "backgroundLaunchDone"] {
                #expect(trace.contains(event), "the trace lacks \(event): \(trace)")
            }
            #expect(try await scenario.tool(["tasks"]).standardOutput.contains("No Background Tasks requests"))
        }
    }

    @Test("Low Power Mode holds refresh tasks; a processing task that needs power waits for external power")
    func settingsGateTasks() async throws {
        try await withTaskApp { scenario in
            try await scenario.tool(["settings", "--low-power", "on", "--external-power", "off"])
            try await runApp(["--submit", "refresh:now", "--submit", "cleanup:now:power"], in: scenario)
            let held = try await scenario.tool(["tasks"]).standardOutput
            #expect(held.contains("Low Power Mode is on"), "\(held)")
            #expect(!(try await watch(for: .seconds(1)) { events(in: scenario).contains { $0.name == "launch" } }))

            try await scenario.tool(["settings", "--low-power", "off"])
            _ = try await waitForEvent("launch", Self.refresh, in: scenario)
            // Decided by the trace's order, whatever the machine's speed: no task was launched
            // before the setting that ended Low Power Mode.
            let trace = scenario.trace().map(\.event)
            let lowPowerOff = try #require(trace.lastIndex(of: "settings"), "\(trace)")
            #expect(!trace[..<lowPowerOff].contains("launchTask"), "\(trace)")
            let waiting = try await scenario.tool(["tasks"]).standardOutput
            #expect(waiting.contains("requires power") && waiting.contains("on battery"), "\(waiting)")
            #expect(!events(in: scenario).contains { $0.name == "launch" && $0.identifier == Self.cleanup })

            try await scenario.tool(["settings", "--external-power", "on"])
            _ = try await waitForEvent("launch", Self.cleanup, in: scenario)
        }
    }

    @Test("Apple's rules: an unlisted identifier is not permitted, and an app has one refresh request at most")
    func submissionRules() async throws {
        try await withTaskApp { scenario in
            try await runApp(
                ["--submit", "refresh:3600", "--submit-other", "com.example.unlisted", "--submit-other", Self.secondRefresh],
                in: scenario)
            let log = events(in: scenario)
            #expect(log.contains { $0.name == "submitted" && $0.identifier == Self.refresh })
            #expect(log.contains { $0.name == "refused3" && $0.identifier == "com.example.unlisted" }, "\(log)")
            #expect(log.contains { $0.name == "refused2" && $0.identifier == Self.secondRefresh }, "\(log)")
            // Submitting the same identifier again replaces the pending request instead.
            try await runApp(["--submit", "refresh:7200"], in: scenario)
            #expect(events(in: scenario).filter { $0.name == "submitted" }.count == 2)
        }
    }

    @Test("A task past its limit gets its expiration handler, then its background launch is killed")
    func expirationThenKill() async throws {
        try await withTaskApp(configuration: ["appRefreshRuntimeLimit": 2], behaviour: "hang") { scenario in
            // One device minute: a real second, so the app that submits it has exited by then.
            try await runApp(["--submit", "refresh:60"], in: scenario)
            let launch = try await waitForEvent("launch", Self.refresh, in: scenario)
            #expect(launch.inBackground)
            _ = try await waitForEvent("expire", Self.refresh, in: scenario)
            try await poll(until: { !isProcessAlive(launch.pid) }, "the hung app to be killed")
            let trace = scenario.trace()
            #expect(trace.contains { $0.event == "expireTask" })
            #expect(trace.contains { $0.event == "taskKilled" && ($0.detail ?? "").contains("runtime limit") })
            let app = try #require(try await scenario.appStatus())
            #expect((app["lastTaskEnding"] as? String)?.contains("ran past its 2 s runtime limit") == true, "\(app)")
        }
    }

    @Test("An app that crashes during its task ends the task, and the trace says why")
    func crashDuringTask() async throws {
        try await withTaskApp(behaviour: "work=60") { scenario in
            try await runApp(["--submit", "refresh:60"], in: scenario)
            let launch = try await waitForEvent("launch", Self.refresh, in: scenario)
            kill(launch.pid, SIGKILL)
            let ended = try await poll(interval: .milliseconds(20), "the trace to end the task") {
                scenario.trace().first { $0.event == "taskEnded" }
            }
            #expect(ended.detail?.contains("connection closed") == true, "\(ended)")
            #expect(try await scenario.tool(["tasks"]).standardOutput.contains("No Background Tasks requests"))
            #expect(!events(in: scenario).contains { $0.name == "complete" })
        }
    }

    @Test("A task for an app that is running runs in it, launched by simulate --launch-task")
    func runsInRunningApp() async throws {
        try await withTaskApp { scenario in
            let app = try scenario.launchApp(["--submit", "refresh:3600"])
            _ = try await waitForEvent("submitted", Self.refresh, in: scenario)
            let launched = try await scenario.tool(["simulate", "--launch-task", Self.refresh]).standardOutput
            #expect(launched.contains("Launched the task"))
            let launch = try await waitForEvent("launch", Self.refresh, in: scenario)
            #expect(launch.pid == app.pid && !launch.inBackground)
            #expect(!scenario.trace().contains { $0.event == "launchInBackground" })
            _ = await app.terminate()
        }
    }

    @Test("cancelAllTaskRequests() removes every pending request of the app, of each kind")
    func cancelAllRemovesEveryRequest() async throws {
        try await withTaskApp { scenario in
            try await runApp(["--submit", "refresh:3600", "--submit", "cleanup:3600"], in: scenario)
            let listed = try await scenario.tool(["tasks"]).standardOutput
            #expect(listed.contains(Self.refresh) && listed.contains(Self.cleanup), "\(listed)")
            try await runApp(["--cancel-all"], in: scenario)
            _ = try await waitForEvent("cancelledAll", "all", in: scenario)
            try await poll(until: {
                try await scenario.tool(["tasks"]).standardOutput.contains("No Background Tasks requests")
            }, "tasks to list no request after cancelAllTaskRequests()")
            let cancel = scenario.trace().last { $0.event == "cancelTaskRequest" }
            #expect(cancel?.detail == "all (2)", "the trace's cancel: \(String(describing: cancel))")
        }
    }

    @Test("Pending requests survive a restart of the service")
    func survivesRestart() async throws {
        try await withTaskApp { scenario in
            try await runApp(["--submit", "refresh:3600", "--submit", "cleanup:3600:network"], in: scenario)
            try await scenario.scenario.service.kill()
            // The next command starts the service again, from what it stored.
            let listed = try await scenario.tool(["tasks"]).standardOutput
            #expect(listed.contains(Self.refresh) && listed.contains(Self.cleanup), "\(listed)")
            #expect(listed.contains("requires network"), "\(listed)")
        }
    }
}
