/*
Abstract:
End-to-end: an accelerated device clock runs ahead of real time, status and clock say so, and clock --real-time puts it back.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("The device clock", .serialized, .timeLimit(.minutes(3)))
struct DeviceClockTests {
    /// The device clock as `status --json` reports it.
    static func clock(of scenario: Scenario) async throws -> DeviceClockStatus {
        let result = try await scenario.runTool(["status", "--json"])
        #expect(result.status == .exited(0), "\(result.standardError)")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let status = try decoder.decode(ServiceStatus.self, from: Data(result.standardOutput.utf8))
        return try #require(status.deviceClock, "status has no deviceClock: \(result.standardOutput)")
    }

    @Test("At timeScale 3600 the clock runs hours ahead; status says so, and clock --real-time puts it back")
    func acceleratedClockIsShownAndPutBack() async throws {
        let scenario = try Scenario()
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration.merging(["timeScale": 3600]) { $1 }) { _ in
            // An hour of device time passes in a real second.
            let ahead = try await poll("the device clock to run an hour ahead") { () async throws -> DeviceClockStatus? in
                let clock = try await Self.clock(of: scenario)
                return clock.secondsAhead > 3600 ? clock : nil
            }
            #expect(ahead.timeScale == 3600)

            let table = try await scenario.runTool(["status"])
            #expect(table.standardOutput.contains("clock device-time="), "\(table.standardOutput)")
            let shown = try await scenario.runTool(["clock"])
            #expect(shown.status == .exited(0), "\(shown.standardError)")
            #expect(shown.standardOutput.contains("ahead of real time"), "\(shown.standardOutput)")
            #expect(shown.standardOutput.contains("clock --real-time"), "\(shown.standardOutput)")

            let resetStarted = Date.now
            let reset = try await scenario.runTool(["clock", "--real-time"])
            #expect(reset.status == .exited(0), "\(reset.standardError)")
            #expect(reset.standardOutput.contains("Put the device's clock back to real time"), "\(reset.standardOutput)")
            // The speed stays what config.json says, and the command says what that means.
            #expect(reset.standardOutput.contains("timeScale is 3600 in"), "\(reset.standardOutput)")
            let after = try await Self.clock(of: scenario)
            // From the reset on, device time runs ahead again at 3600 times real time: no more than
            // that, however long a busy machine took between the two commands.
            let sinceReset = Date.now.timeIntervalSince(resetStarted)
            #expect(after.secondsAhead <= sinceReset * 3600 + 60, "\(after.secondsAhead) s ahead \(sinceReset) s after the reset")
            let trace = try String(contentsOf: scenario.deviceRoot.appending(path: "system/trace.jsonl"), encoding: .utf8)
            #expect(trace.contains("\"event\":\"resetDeviceClock\""))
            // While the device runs apart, the trace records its time beside the real one.
            #expect(trace.contains("\"deviceTime\":"))
        }
    }

    @Test("At real time, clock says so and status shows no clock line")
    func realTimeClock() async throws {
        let scenario = try Scenario()
        try await withService(deviceRoot: scenario.deviceRoot, configuration: quickConfiguration) { _ in
            let shown = try await scenario.runTool(["clock"])
            #expect(shown.standardOutput.hasPrefix("The device's clock shows real time: "), "\(shown.standardOutput)")
            let status = try await scenario.runTool(["status"])
            #expect(!status.standardOutput.contains("clock device-time="), "\(status.standardOutput)")
            let reset = try await scenario.runTool(["clock", "--real-time"])
            #expect(reset.standardOutput.hasPrefix("The device's clock already showed real time: "), "\(reset.standardOutput)")
        }
    }
}
