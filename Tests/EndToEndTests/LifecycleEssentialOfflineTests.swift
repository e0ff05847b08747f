/*
Abstract:
End-to-end: essential downloads whose server cannot be reached fail after essentialConnectivityWait, and the install ends.
*/

import Foundation
import Testing
import TestSupport

extension LifecycleTests {
    @Suite("Give up on unreachable essential downloads")
    struct LifecycleEssentialOfflineTests {
        @Test("Essential downloads that cannot connect fail after essentialConnectivityWait, and the app becomes launchable")
        func unreachableEssentialDownloadsEndTheInstall() async throws {
            try await withLifecycle(configuration: ["essentialConnectivityWait": 1, "connectivityProbeInterval": 0.2]) { scenario in
                var life = scenario
                var behaviour = life.behaviour()
                // 127.0.0.2 is loopback, but the asset server listens on 127.0.0.1 only: every connection is refused.
                behaviour.hostOverrides = Dictionary(uniqueKeysWithValues: life.essentialSessions.map { ($0.id, "127.0.0.2") })
                try life.write(behaviour)
                life.bundle.domainAllowList.append("127.0.0.2")
                let started = Date()
                try await life.installAndWait()
                // Not before the wait: an essential download gets the whole of essentialConnectivityWait.
                #expect(Date().timeIntervalSince(started) >= 1)

                let status = try #require(try await life.appStatus())
                #expect(status["state"] as? String == "launchable")
                let progress = try #require(status["progress"] as? [String: Any])
                #expect(progress["essentialFailed"] as? Int == life.essentialSessions.count)
                let calls = try await life.waitForExtensionCalls("the failures delivered to the extension") {
                    $0.downloads("failed") == Set(life.essentialSessions.map(\.id))
                }
                // URLError.cannotConnectToHost, as URLSession reports a refused connection; or, when the
                // wait ran out in the middle of an attempt, URLError.timedOut naming the refusals before it.
                #expect(calls.calls("failed").allSatisfy { call in
                    call.errorCode == -1004 || (call.errorCode == -1001 && call.errorMessage?.contains("Connection refused") == true)
                }, "\(calls.calls("failed"))")
            }
        }
    }
}
