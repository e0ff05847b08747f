/*
Abstract:
Background Tasks run on the system's schedule: not while the app is in the foreground, spaced apart, and never inside the app's start-up.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

extension BackgroundTaskTests {
    @Test("A launch handler that submits its request again runs at the spacing, and never while the app is in the foreground")
    func resubmittingHandlerIsSpaced() async throws {
        // 300 device seconds at timeScale 60: five real seconds between two runs.
        try await withTaskApp(configuration: ["taskRunSpacing": 300], behaviour: "resubmit") { scenario in
            // A person opens the app: it registers its handler and submits a request that may run now.
            let app = try scenario.launchApp(["--submit", "cleanup:now"])
            _ = try await waitForEvent("submitted", Self.cleanup, in: scenario)
            let held = try await poll(interval: .milliseconds(100), "tasks to name the foreground") {
                let listed = try await scenario.tool(["tasks"]).standardOutput
                return listed.contains("waiting: app in the foreground") ? listed : nil
            }
            #expect(held.contains(Self.cleanup), "\(held)")
            let ranInForeground = try await watch(for: .seconds(1)) { events(in: scenario).contains { $0.name == "launch" } }
            #expect(!ranInForeground, "a task ran at registration, in the app in the foreground")

            // The app leaves: the system runs the task in the background, and each run submits the next.
            _ = await app.terminate()
            try await poll(until: {
                events(in: scenario).filter { $0.name == "launch" && $0.identifier == Self.cleanup }.count >= 3
            }, timeout: .seconds(60), "three runs of the cleanup")
            let launches = events(in: scenario).filter { $0.name == "launch" }
            #expect(launches.allSatisfy { $0.inBackground }, "\(launches)")
            let started = scenario.trace().filter { $0.event == "launchTask" && ($0.detail ?? "").hasPrefix(Self.cleanup) }.map(\.time)
            for (earlier, later) in zip(started, started.dropFirst()) {
                #expect(later.timeIntervalSince(earlier) >= 4.9, "two runs \(later.timeIntervalSince(earlier)) s apart: \(started)")
            }
            // Between two runs, tasks names the spacing, in its lines and its JSON.
            let spaced = try await poll(interval: .milliseconds(100), "tasks to name the spacing") {
                let json = try await scenario.tool(["tasks", "--json"]).standardOutput
                return json.contains("\"waitingFor\" : \"spacing\"") ? json : nil
            }
            #expect(spaced.contains("\"notBefore\""), "\(spaced)")
        }
    }

    @Test("A task launch reaches the app only after its start-up: not while the code that registered the handler still runs")
    func launchWaitsForStartUp() async throws {
        // Every launch of the app keeps its main thread busy for 2 s after registering its handlers.
        try await withTaskApp(behaviour: "setup=2") { scenario in
            try await runApp(["--submit", "cleanup:now"], in: scenario)
            let launch = try await waitForEvent("launch", Self.cleanup, in: scenario)
            #expect(launch.inBackground)
            let process = events(in: scenario).filter { $0.pid == launch.pid }.map(\.name)
            let ready = try #require(process.firstIndex(of: "ready"), "\(process)")
            let launched = try #require(process.firstIndex(of: "launch"), "\(process)")
            #expect(ready < launched, "the task ran inside the app's start-up: \(process)")
            // The service sent the task as soon as the handler was registered, inside the start-up.
            let trace = scenario.trace().map(\.event)
            #expect(trace.contains("launchTask"), "\(trace)")
        }
    }
}
