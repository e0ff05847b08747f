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
                try await life.installAndWait()
                let installed = Date()
                let status = try #require(try await life.appStatus())
                #expect(status["nextPeriodicCheck"] != nil && !(status["nextPeriodicCheck"] is NSNull), "\(status)")

                let calls = try await life.waitForExtensionCalls("three periodic requests", timeout: .seconds(30)) {
                    $0.contentRequests(3).count >= 3
                }
                let periodic = calls.contentRequests(3)
                // Eleven device days, not eleven real ones: a few real seconds.
                let offsets = periodic.map { $0.date.timeIntervalSince(installed) }
                #expect(offsets[2] < 10, "periodic requests came \(offsets) s after the install")
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
                // Sixteen device days pass in this window; an app not in low-power mode gets three checks in it.
                let ran = try await watch(for: .seconds(4)) { !life.extensionCalls().contentRequests(3).isEmpty }
                #expect(!ran, "a periodic request ran in low-power mode")

                try await life.tool(["settings", "--low-power", "off"])
                _ = try await life.waitForExtensionCalls("a periodic request after low-power mode", timeout: .seconds(30)) {
                    !$0.contentRequests(3).isEmpty
                }
            }
        }
    }
}
