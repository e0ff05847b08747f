/*
Abstract:
End-to-end: installing a higher version is an update, and the extension gets an update content request.
*/

import Foundation
import Testing
import TestSupport

extension LifecycleTests {
    @Suite("Update the app")
    struct LifecycleUpdateTests {
        @Test("install --version 2 over version 1 sends the extension an update request")
        func updateRequest() async throws {
            try await withLifecycle { life in
                var behaviour = life.behaviour()
                behaviour.returnFor = []
                try life.write(behaviour)
                try await life.installAndWait()
                _ = try await life.waitForExtensionCalls("the install request") { !$0.contentRequests(1).isEmpty }

                let update = try await life.install(version: "2")
                #expect(update.status == .exited(0), "\(update.standardError)")
                let calls = try await life.waitForExtensionCalls("the update request") { !$0.contentRequests(2).isEmpty }
                #expect(calls.contentRequests(1).count == 1, "\(calls)")
                #expect(calls.contentRequests(2).count == 1, "\(calls)")
                let status = try #require(try await life.appStatus())
                #expect(status["version"] as? String == "2")
                #expect(status["state"] as? String == "launchable")
            }
        }

        @Test("An update asked for with --wait while version 1 is still installing says it waits for that install, then updates")
        func updateWaitsForRunningInstall() async throws {
            // The install request holds the extension until the test kills it, so version 1 is still
            // installing for as long as the test needs, however slow the machine.
            try await withLifecycle(configuration: ["extensionRuntimeLimit": 600]) { life in
                var behaviour = life.behaviour()
                behaviour.returnFor = []
                behaviour.misbehaveFor = [1]
                behaviour.sleepSeconds = 600
                try life.write(behaviour)
                let first = try await life.install(wait: false)
                #expect(first.status == .exited(0), "\(first.standardError)")
                let calls = try await life.waitForExtensionCalls("the install request") { !$0.contentRequests(1).isEmpty }
                let held = try #require(calls.contentRequests(1).first)

                let refused = try await life.install(version: "2", wait: false)
                #expect(refused.status != .exited(0))
                #expect(refused.standardError.contains("version 1 is still installing"), "\(refused.standardError)")

                try await life.launchInstall(version: "2").runScoped { update in
                    try await poll(until: { update.standardError().contains("is still installing another version; waiting for that install to end") },
                                   "the update to say what it waits for")
                    #expect(update.isRunning, "the update went ahead of version 1's install: \(update.standardError())")
                    #expect(try await life.appStatus()?["version"] as? String == "1")
                    // Version 1's extension ends, and its install with it: the update goes ahead.
                    kill(held.pid, SIGKILL)
                    #expect(try await update.waitForExit() == .exited(0), "\(update.standardError())")
                    #expect(update.standardOutput().contains("from version 1 to 2"), "\(update.standardOutput())")
                }
                let updated = try await life.waitForExtensionCalls("the update request") { !$0.contentRequests(2).isEmpty }
                #expect(updated.contentRequests(1).count == 1 && updated.contentRequests(2).count == 1, "\(updated)")
                #expect(try await life.appStatus()?["version"] as? String == "2")
            }
        }
    }
}
