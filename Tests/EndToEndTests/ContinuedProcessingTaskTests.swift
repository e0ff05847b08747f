/*
Abstract:
Continued-processing tasks with the real processes: they run in the app that submitted them, show their progress, expire when cancelled, and queue for room.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

extension BackgroundTaskTests {
    static func export(_ name: String) -> String { "com.example.lifecycle-test.export.\(name)" }

    @Test("A continued-processing task runs in the app that submitted it, tasks shows its progress, and a cancel expires it")
    func continuedProcessingRunsAndExpires() async throws {
        try await withTaskApp { scenario in
            let app = try scenario.launchApp(["--continue", "one:50:5"])
            let launch = try await waitForEvent("launch", Self.export("one"), in: scenario)
            #expect(launch.pid == app.pid && !launch.inBackground)
            _ = try await waitForEvent("progress5", Self.export("one"), in: scenario)
            let listed = try await poll("tasks to show the progress") {
                let output = try? await scenario.tool(["tasks"]).standardOutput
                return output.flatMap { $0.contains("10% (5 of 50)") ? $0 : nil }
            }
            #expect(listed.contains("continued processing, running"), "\(listed)")
            #expect(listed.contains(#""Exporting one" "5 of 50""#), "\(listed)")

            // A person cancels it in the system's interface: its expiration handler runs.
            try await scenario.tool(["simulate", "--expire-task", Self.export("one")])
            _ = try await waitForEvent("expire", Self.export("one"), in: scenario)
            _ = try await poll("the task to end") {
                (try? await scenario.tool(["tasks"]).standardOutput)?.contains("No Background Tasks requests") == true ? true : nil
            }
            let trace = scenario.trace()
            #expect(trace.contains { $0.event == "expireTask" && $0.detail == Self.export("one") })
            #expect(trace.contains { $0.event == "taskCompleted" && $0.detail == "\(Self.export("one")) success false" })
            #expect(isProcessAlive(app.pid), "the app a person uses stays when its task ends")
            _ = await app.terminate()
        }
    }

    @Test("Two run at once; with the fail strategy a third is refused, queued it starts when one ends")
    func continuedProcessingQueuesForRoom() async throws {
        try await withTaskApp { scenario in
            let first = try scenario.launchApp(["--continue", "a:50:5"])
            let second = try scenario.launchApp(["--continue", "b:50:5"])
            _ = try await waitForEvent("launch", Self.export("a"), in: scenario)
            _ = try await waitForEvent("launch", Self.export("b"), in: scenario)

            try await runApp(["--continue", "c:10:10:fail"], in: scenario)
            #expect(events(in: scenario).contains { $0.name == "refused4" && $0.identifier == Self.export("c") })

            let queued = try scenario.launchApp(["--continue", "d:10:10"])
            _ = try await waitForEvent("submitted", Self.export("d"), in: scenario)
            let waiting = try await scenario.tool(["tasks"]).standardOutput
            #expect(waiting.contains("queued: 2 continued-processing tasks run"), "\(waiting)")

            // The first app exits: its task ends, and the queued request starts in its own app.
            _ = await first.terminate()
            let launch = try await waitForEvent("launch", Self.export("d"), in: scenario)
            #expect(launch.pid == queued.pid)
            _ = try await waitForEvent("complete", Self.export("d"), in: scenario)
            _ = await second.terminate()
            _ = await queued.terminate()
        }
    }
}
