/*
Abstract:
The sample's device with no service owned by the test: clients start it on demand, so tests can kill it.
*/

import Foundation
import TestSupport

/// Runs `body` with the sample's device and a throttled asset server, but no service started by
/// the test: every one is started on demand by a client, as on a device, so each kill is of a
/// service the test does not own. Every service and extension of the device root is ended
/// afterwards, whatever happened.
/// - Parameters:
///   - configuration: The service's knobs.
///   - sessions: How many sessions the catalog has.
///   - sessionSize: The typical size of a session file.
///   - throttle: The asset server's rate per response, in bytes per second.
///   - body: The test.
func withServiceOnDemand(
    configuration: [String: Double], sessions: Int, sessionSize: Int, throttle: Int,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (SampleDevice) async throws -> Void
) async throws {
    let scenario = try Scenario()
    let root = scenario.deviceRoot
    try ServiceProcess.writeConfiguration(configuration, in: root)
    try await withAssetServer(
        sessions: sessions, sessionSize: sessionSize,
        arguments: ["--access-log", scenario.accessLog.path, "--throttle", String(throttle)]
    ) { server in
        do {
            try await body(SampleDevice(scenario: scenario, server: server))
        } catch {
            await ServiceProcess.killAll(in: root)
            killExtensions(of: root)
            throw error
        }
        await ServiceProcess.killAll(in: root)
        killExtensions(of: root)
    }
}
