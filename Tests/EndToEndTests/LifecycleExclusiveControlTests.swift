/*
Abstract:
End-to-end: an extension holding exclusive control from an async task is kept alive until it lets go.
*/

import Foundation
import Testing
import TestSupport

extension LifecycleTests {
    @Suite("Keep the extension alive while it holds exclusive control")
    struct LifecycleExclusiveControlTests {
        @Test("The extension is not terminated while its async exclusive-control handler runs")
        func exclusiveControlKeepsExtensionAlive() async throws {
            try await withLifecycle { life in
                var behaviour = life.behaviour()
                behaviour.returnFor = []
                behaviour.exclusiveControlSeconds = 1.5
                try life.write(behaviour)
                try await life.installAndWait()

                let calls = try await life.waitForExtensionCalls("exclusive control released", timeout: .seconds(30)) {
                    !$0.calls("exclusiveControlReleased").isEmpty || $0.calls("exclusiveControlAcquired")
                        .contains { $0.errorCode != nil }
                }
                let acquired = try #require(calls.calls("exclusiveControlAcquired").first)
                #expect(acquired.errorCode == nil, "withExclusiveControl failed: \(acquired)")
                let released = try #require(calls.calls("exclusiveControlReleased").first)
                let request = try #require(calls.contentRequests(1).first)
                #expect(released.pid == request.pid)
                #expect(released.time - acquired.time >= 1.4)
                try await poll(until: { !isProcessAlive(request.pid) }, "the extension to end")
            }
        }
    }
}

extension LifecycleTests.LifecycleExclusiveControlTests {
    @Test("An extension that holds exclusive control past extensionRuntimeLimit after its last call is killed")
    func holdingExclusiveControlIsBounded() async throws {
        try await withLifecycle(configuration: ["extensionRuntimeLimit": 1]) { life in
            var behaviour = life.behaviour()
            behaviour.returnFor = []
            behaviour.exclusiveControlSeconds = 30
            try life.write(behaviour)
            try await life.installAndWait()

            let calls = try await life.waitForExtensionCalls("exclusive control acquired", timeout: .seconds(30)) {
                !$0.calls("exclusiveControlAcquired").isEmpty
            }
            let acquired = try #require(calls.calls("exclusiveControlAcquired").first)
            try await poll(until: { !isProcessAlive(acquired.pid) }, "the extension to be killed")
            let killed = try #require(life.trace().last { $0.event == "extensionKilled" })
            #expect(killed.detail?.contains("held exclusive control") == true, "\(killed)")
            #expect(life.extensionCalls().calls("exclusiveControlReleased").isEmpty)
        }
    }
}
