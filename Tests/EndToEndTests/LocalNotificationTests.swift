/*
Abstract:
Local notifications with the real processes: recorded by the device when the app is allowed to post them, and not when it is denied.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Local notifications", .serialized, .timeLimit(.minutes(3)))
struct LocalNotificationTests {
    @Test("A denied app's notification is not delivered; allowed, the next one is, and notifications lists it")
    func allowedAndDenied() async throws {
        try await withSessionApp { scenario in
            let app = scenario.bundle.bundleIdentifier
            let denied = try await scenario.tool(["settings", "--notifications", "deny", "-b", app])
            #expect(denied.standardOutput.split(separator: "\n").contains { $0.hasPrefix("notifications.") && $0.hasSuffix("=deny") },
                    "settings shows the app's answer: \(denied.standardOutput)")
            let first = try scenario.launchSessionApp(["--notify", "Denied"])
            #expect(try await first.waitForExit().isSuccess)
            #expect(scenario.sessionRecords().contains { $0.pid == first.pid && $0.event == "notAuthorized" })
            #expect(try await delivered(in: scenario, app: app).isEmpty, "nothing is delivered for a denied app")

            _ = try await scenario.tool(["settings", "--notifications", "allow", "-b", app])
            let second = try scenario.launchSessionApp(["--notify", "Allowed"])
            #expect(try await second.waitForExit().isSuccess)
            #expect(scenario.sessionRecords().contains { $0.pid == second.pid && $0.event == "authorized" })
            let records = try await poll(interval: .milliseconds(200), "the notification delivered") {
                let records = try await delivered(in: scenario, app: app)
                return records.isEmpty ? nil : records
            }
            #expect(records.map(\.notification.request.content.title) == ["Allowed"])
            #expect(records.first?.bundleIdentifier == app)
            let listed = try await scenario.tool(["notifications", "-b", app])
            #expect(listed.standardOutput.contains("download-complete  Allowed: The download is complete."), "\(listed.standardOutput)")
        }
    }

    @Test("setBadgeCount sets the number notifications shows for the app; 0 removes it, and a negative count is refused")
    func badgeCount() async throws {
        try await withSessionApp { scenario in
            let app = scenario.bundle.bundleIdentifier
            let set = try scenario.launchSessionApp(["--badge", "7"])
            #expect(try await set.waitForExit().isSuccess)
            #expect(scenario.sessionRecords().contains { $0.pid == set.pid && $0.event == "badgeSet" && $0.code == 7 })
            let listed = try await scenario.tool(["notifications", "-b", app])
            #expect(listed.standardOutput.split(separator: "\n").contains { $0.hasPrefix("badge  ") && $0.hasSuffix("  7") },
                    "\(listed.standardOutput)")

            let negative = try scenario.launchSessionApp(["--badge=-1"])
            #expect(try await negative.waitForExit().isSuccess)
            #expect(scenario.sessionRecords().contains { $0.pid == negative.pid && $0.event == "badgeFailed" && $0.code == 1600 })

            let cleared = try scenario.launchSessionApp(["--badge", "0"])
            #expect(try await cleared.waitForExit().isSuccess)
            let after = try await scenario.tool(["notifications", "-b", app])
            #expect(!after.standardOutput.contains("badge  "), "\(after.standardOutput)")
        }
    }

    @Test("notifications --respond launches the app that is not running, and its delegate gets the action and the text")
    func respondLaunchesTheApp() async throws {
        try await withSessionApp { scenario in
            let app = scenario.bundle.bundleIdentifier
            let post = try scenario.launchSessionApp(["--notify", "Levels", "--categories"])
            #expect(try await post.waitForExit().isSuccess)
            _ = try await poll(interval: .milliseconds(200), "the notification delivered") {
                try await delivered(in: scenario, app: app).isEmpty ? nil : true
            }

            let refused = try await scenario.scenario.runTool(["notifications", "--respond", "download-complete", "--action", "FLY", "-b", app])
            #expect(!refused.status.isSuccess && refused.standardError.contains("PLAY, REPLY"), "\(refused.standardError)")

            let answered = try await scenario.tool(["notifications", "--respond", "download-complete", "--action", "REPLY",
                                                    "--text", "On my way", "-b", app])
            #expect(answered.standardOutput.contains("Answered download-complete"), "\(answered.standardOutput)")
            let response = try await scenario.waitForSessionRecord("the delegate's didReceive") { $0.event == "didReceiveResponse" }
            #expect(response.background, "the service launched the app in the background")
            #expect(response.message == "REPLY" && response.file == "On my way" && response.session == "download-complete")
            // The delegate called its completion handler: nothing keeps the launch, and it ends.
            try await poll(until: { !isProcessAlive(response.pid) }, "the background launch to end")
        }
    }

    /// What `notifications --json -b APP` lists.
    private func delivered(in scenario: LifecycleScenario, app: String) async throws -> [DeliveredNotificationRecord] {
        let result = try await scenario.tool(["notifications", "--json", "-b", app])
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([DeliveredNotificationRecord].self, from: Data(result.standardOutput.utf8))
    }
}
