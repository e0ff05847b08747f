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

        @Test("An update asked for with --wait while version 1 is still installing waits for that install, then updates")
        func updateWaitsForRunningInstall() async throws {
            try await withLifecycle { life in
                var behaviour = life.behaviour()
                behaviour.returnFor = []
                // The install request holds the extension for 3 s; the update's returns at once.
                behaviour.misbehaveFor = [1]
                behaviour.sleepSeconds = 3
                try life.write(behaviour)
                let first = try await life.install(wait: false)
                #expect(first.status == .exited(0), "\(first.standardError)")

                let refused = try await life.install(version: "2", wait: false)
                #expect(refused.status != .exited(0))
                #expect(refused.standardError.contains("version 1 is still installing"), "\(refused.standardError)")

                let update = try await life.install(version: "2")
                #expect(update.status == .exited(0), "\(update.standardError)")
                #expect(update.standardOutput.contains("from version 1 to 2"), "\(update.standardOutput)")
                let calls = try await life.waitForExtensionCalls("the update request") { !$0.contentRequests(2).isEmpty }
                #expect(calls.contentRequests(1).count == 1 && calls.contentRequests(2).count == 1, "\(calls)")
                #expect(try await life.appStatus()?["version"] as? String == "2")
            }
        }
    }
}
