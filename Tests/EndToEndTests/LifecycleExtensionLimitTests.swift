/*
Abstract:
End-to-end: an extension over its runtime or memory limit is killed, and a crashed or killed one does not hold the install.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

extension LifecycleTests {
    @Suite("Kill an extension that overruns its limits")
    struct LifecycleExtensionLimitTests {
        @Test("An extension sleeping past extensionRuntimeLimit is killed and the app becomes launchable")
        func runtimeLimit() async throws {
            try await withLifecycle(configuration: ["extensionRuntimeLimit": 1]) { life in
                var behaviour = life.behaviour()
                behaviour.sleepSeconds = 30
                behaviour.misbehaveFor = [1]
                try life.write(behaviour)
                try await expectKilled(life, because: "runtime limit")
            }
        }

        @Test("An extension whose resident memory passes extensionMemoryLimit is killed")
        func memoryLimit() async throws {
            try await withLifecycle(configuration: ["extensionMemoryLimit": 67_108_864]) { life in
                var behaviour = life.behaviour()
                // Three times the limit, then a sleep well inside the runtime limit: only memory can end it.
                behaviour.allocateMiB = 192
                behaviour.sleepSeconds = 15
                behaviour.misbehaveFor = [1]
                try life.write(behaviour)
                try await expectKilled(life, because: "memory limit")
            }
        }

        @Test("An extension that crashes during the install request leaves the app launchable at once")
        func crashDuringInstall() async throws {
            try await withLifecycle { life in
                var behaviour = life.behaviour()
                behaviour.crash = true
                behaviour.misbehaveFor = [1]
                try life.write(behaviour)
                try await life.installAndWait()
                let calls = life.extensionCalls()
                let request = try #require(calls.contentRequests(1).first, "\(calls)")
                #expect(calls.calls("returned").isEmpty, "the extension was meant to abort: \(calls)")
                try await poll(until: { !isProcessAlive(request.pid) }, "the crashed extension to end")
                let status = try await life.waitForAppStatus("the crash") { $0["lastExtensionTermination"] is String }
                #expect(status["state"] as? String == "launchable")
                #expect(status["extensionProcessIdentifier"] == nil || status["extensionProcessIdentifier"] is NSNull)
            }
        }

        @Test("The runtime an extension used is charged to its app's daily budget, and kept across a crash of the service")
        func runtimeIsCharged() async throws {
            try await withLifecycle(sessions: 2, configuration: ["extensionDailyBudget": 100]) { life in
                var behaviour = life.behaviour()
                behaviour.sleepSeconds = 1
                behaviour.misbehaveFor = [1]
                try life.write(behaviour)
                try await life.installAndWait()
                let charged = { (status: [String: Any]) in (status["runtimeBudgetLeft"] as? Double).map { $0 <= 99 } ?? false }
                _ = try await life.waitForAppStatus("at least a second of the budget used", until: charged)
                // Once the extension has exited, its runtime is in the app's record: a new service reads it there.
                try await poll(until: { life.trace().contains { $0.event == "extensionExited" } }, "the extension to exit")
                try await life.scenario.service.kill()
                let restarted = try #require(try await life.appStatus())
                #expect(charged(restarted), "after a restart: \(restarted)")
            }
        }

        /// Installs, and checks that the extension was killed for `reason` in the status and the
        /// trace. (When the limit passes is checked on a manual clock, in ExtensionLimitClockTests.)
        private func expectKilled(_ life: LifecycleScenario, because reason: String) async throws {
            try await life.installAndWait()

            let calls = life.extensionCalls()
            let request = try #require(calls.contentRequests(1).first, "\(calls)")
            #expect(calls.calls("returned").isEmpty, "the extension returned, so it was not killed: \(calls)")
            try await poll(until: { !isProcessAlive(request.pid) }, "the killed extension to end")

            let status = try await life.waitForAppStatus("the termination") { $0["lastExtensionTermination"] is String }
            #expect(status["state"] as? String == "launchable")
            let termination = status["lastExtensionTermination"] as? String ?? ""
            #expect(termination.contains(reason), "lastExtensionTermination: \(termination)")
            let killed = life.trace().filter { $0.event == "extensionKilled" }
            #expect(killed.contains { $0.detail?.contains(reason) == true }, "\(killed)")
        }
    }
}
