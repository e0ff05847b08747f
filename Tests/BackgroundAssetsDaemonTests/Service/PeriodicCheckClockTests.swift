/*
Abstract:
Tests that periodic content requests come when the device clock (the service's clock times timeScale) says, and wait out low-power mode.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Periodic checks on a manual clock", .serialized, .timeLimit(.minutes(3)))
struct PeriodicCheckClockTests {
    /// A device day for every second of the service's clock.
    static let timeScale: Double = 86_400

    @Test("With timeScale 86400 the first periodic check comes one second of the clock after the install, not before")
    func periodicCheckFollowsTheDeviceClock() async throws {
        try await InProcessService.with({ $0.timeScale = Self.timeScale }) { device in
            let app = try await device.installTestApp(behaviour: ["returnFor": [1, 2]])
            defer { app.manifestServer.stop() }
            // A never-launched app is first checked a device day after its install. The install must
            // have ended first: its extension's idle grace runs on this clock too, so an install still
            // under way when the clock moves below would end after it, with no check due any more.
            let next = try await device.waitForAppStatus(app, "the install's end and a periodic check scheduled") {
                $0.state == .launchable ? $0.nextPeriodicCheck : nil
            }
            #expect(abs(next.timeIntervalSince(device.clock.now) - 1) < 0.001, "the next check is due at \(next)")
            try await device.waitForDeadline("the periodic check") { InProcessService.isNear($0, .seconds(1)) }

            try await device.expectNothing("periodicCheck", after: .milliseconds(990), leaving: .milliseconds(10))

            device.clock.advance(by: .milliseconds(20))
            try await device.waitForTrace("the periodic check") { $0.event == "periodicCheck" }
            let request = try await device.waitForTrace("the periodic content request") {
                $0.event == ExtensionLimitClockTests.contentRequest && $0.detail == "periodic"
            }
            #expect(request.app == app.bundleIdentifier)
        }
    }

    @Test("No periodic check comes in low-power mode; turning it off brings the one that is due")
    func lowPowerModeHoldsPeriodicChecks() async throws {
        try await InProcessService.with({ $0.timeScale = Self.timeScale }) { device in
            let tool = try await device.client("com.example.backgroundassets-debug", role: .tool)
            _ = try await tool.ask(.tool(.updateSettings(SettingsChange(lowPowerMode: true))))
            let app = try await device.installTestApp(behaviour: ["returnFor": [1, 2]])
            defer { app.manifestServer.stop() }
            let status = try await device.waitForAppStatus(app, "the install's end") { $0.state == .launchable ? $0 : nil }
            #expect(status.nextPeriodicCheck == nil, "\(status)")
            _ = try await device.waitForAppStatus(app, "periodic checks suspended in low-power mode") {
                $0.periodicCheckSuspendedBecause?.lowercased().contains("low") == true ? $0 : nil
            }

            // Five device days, in which an app not in low-power mode gets two checks (on days 1 and 4);
            // after four weeks unused, it would get none anyway.
            device.clock.advance(by: .seconds(5))
            let later = try await device.appStatus(app)
            #expect(later?.nextPeriodicCheck == nil, "\(String(describing: later))")
            #expect(!device.trace.contains { $0.event == "periodicCheck" }, "a periodic check came in low-power mode")

            _ = try await tool.ask(.tool(.updateSettings(SettingsChange(lowPowerMode: false))))
            try await device.waitForTrace("the periodic check that is due") { $0.event == "periodicCheck" }
            // Its extension is launched and called before the test ends, so stopping the service ends it.
            try await device.waitForTrace("the periodic content request") {
                $0.event == ExtensionLimitClockTests.contentRequest && $0.detail == "periodic"
            }
        }
    }
}

extension InProcessService {
    /// The installed app's status, or `nil` while the service does not list it.
    func appStatus(_ app: TestApp) async throws -> AppStatus? {
        let tool = try await client("com.example.backgroundassets-debug", role: .tool)
        guard case let .status(status) = try await tool.ask(.core(.fetchStatus)) else { return nil }
        return status.apps.first { $0.bundleIdentifier == app.bundleIdentifier }
    }

    /// Waits until the app's status shows something, and returns it.
    func waitForAppStatus<T>(_ app: TestApp, _ description: String, _ shows: @escaping (AppStatus) -> T?) async throws -> T {
        try await poll("\(app.bundleIdentifier)'s status to show \(description)") {
            try await appStatus(app).flatMap(shows)
        }
    }
}
