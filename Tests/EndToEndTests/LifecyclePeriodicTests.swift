/*
Abstract:
End-to-end: periodic content requests follow the accelerated device clock and stop in low-power mode.
*/

import Foundation
import Testing
import TestSupport

extension LifecycleTests {
    @Suite("Check for new content periodically")
    struct LifecyclePeriodicTests {
        /// Four device days every real second. An app installed and never launched is checked on
        /// device days 1, 4 and 11 (PeriodicSchedule: daily while it was used within two days, then
        /// every three days, then weekly), so three checks take under three real seconds.
        static let timeScale: Double = 4 * 86_400

        @Test("Periodic requests follow the accelerated device clock")
        func periodicUnderTimeScale() async throws {
            try await withLifecycle(configuration: ["timeScale": Self.timeScale]) { life in
                var behaviour = life.behaviour()
                behaviour.returnFor = []
                try life.write(behaviour)
                // Read before the install: at this time scale the first check is due a quarter of a
                // real second after it, which a busy machine can take to return from installAndWait.
                let beforeInstall = Date()
                try await life.installAndWait()
                let status = try #require(try await life.appStatus())
                #expect(status["nextPeriodicCheck"] != nil && !(status["nextPeriodicCheck"] is NSNull), "\(status)")

                // Eleven device days, not eleven real ones: a few real seconds. (When each comes is
                // checked on a manual clock, in PeriodicCheckClockTests.)
                let calls = try await life.waitForExtensionCalls("three periodic requests", timeout: .seconds(30)) {
                    $0.contentRequests(3).count >= 3
                }
                #expect(calls.contentRequests(3).allSatisfy { $0.date > beforeInstall })
            }
        }

        @Test("No periodic request arrives in low-power mode; they resume when it is turned off")
        func noPeriodicInLowPowerMode() async throws {
            try await withLifecycle(configuration: ["timeScale": Self.timeScale]) { life in
                var behaviour = life.behaviour()
                behaviour.returnFor = []
                try life.write(behaviour)
                try await life.tool(["settings", "--low-power", "on"])
                try await life.installAndWait()

                let status = try await life.waitForAppStatus("the suspension") {
                    $0["periodicCheckSuspendedBecause"] is String
                }
                let reason = status["periodicCheckSuspendedBecause"] as? String ?? ""
                #expect(reason.lowercased().contains("low"), "periodicCheckSuspendedBecause: \(reason)")
                #expect(status["nextPeriodicCheck"] == nil || status["nextPeriodicCheck"] is NSNull, "\(status)")
                // That none comes however long low-power mode lasts is checked on a manual clock, in
                // PeriodicCheckClockTests; here, none has come by the time the status says why.
                #expect(life.extensionCalls().contentRequests(3).isEmpty, "a periodic request ran in low-power mode")

                try await life.tool(["settings", "--low-power", "off"])
                _ = try await life.waitForExtensionCalls("a periodic request after low-power mode", timeout: .seconds(30)) {
                    !$0.contentRequests(3).isEmpty
                }
            }
        }
    }
}
