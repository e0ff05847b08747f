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
        /// A device day every real second: an app installed and never launched is checked once a
        /// device day at first (PeriodicSchedule), so about once a second here.
        static let timeScale: Double = 86_400

        @Test("Periodic requests arrive once a device day under an accelerated clock")
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
                // Three device days, not three real ones: a few real seconds.
                #expect(periodic[2].date.timeIntervalSince(installed) < 20, "\(periodic.map(\.date))")
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
                // Four device days pass in this window; an app not in low-power mode gets three checks in it.
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
