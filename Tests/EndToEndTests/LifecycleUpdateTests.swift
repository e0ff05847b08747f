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
    }
}
