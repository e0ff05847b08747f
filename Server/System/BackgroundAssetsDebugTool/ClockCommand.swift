/*
Abstract:
`clock`: shows the device's clock against real time, and puts it back to real time.
*/

import BackgroundAssetsIPC
import Foundation

/// Shows the simulated device's clock, or puts it back to real time.
///
/// - Note: Apple's devices have no such command: their clock is the real one. Here `timeScale`
///   speeds the device's clock up for demos, and the clock never runs backwards, so after an
///   accelerated run it stays ahead of real time until this command puts it back.
struct ClockCommand: DebugSubcommand {
    static let configuration = CommandConfiguration(
        name: "clock", abstract: "Show the device's clock against real time, or put it back to real time.",
        discussion: """
            The device's clock runs timeScale times faster than real time (config.json) and never backwards,
            so after an accelerated run it stays ahead, and status and tasks show device dates in the future.
            """)

    @Flag("--real-time", help: """
        Put the device's clock back to real time. Every date recorded in device time (the install, launches, \
        periodic checks, refresh tasks and their requests) moves back by as much, so the schedule keeps its \
        spacing; the extension's runtime budget starts a new day. With timeScale in config.json the clock runs \
        ahead again from then on.
        """, traits: [.oneOf("action")])
    var realTime: Bool
    @Flag("--json", help: """
        Print the clock as a JSON object: deviceTime and realTime (ISO 8601), timeScale, and secondsAhead.
        """, traits: [.oneOf("action")])
    var json: Bool

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection()
        defer { connection.disconnect() }
        guard realTime else {
            let status = try await connection.send(.core(.fetchStatus)).expectedStatus()
            guard let clock = status.deviceClock else { throw Self.oldService }
            let text = DeviceClockText(clock: clock)
            context.console.output(json ? try text.json() : text.description)
            return .success
        }
        let before = try await connection.send(.core(.fetchStatus)).expectedStatus().deviceClock
        let after = try await connection.send(.tool(.resetDeviceClock)).expectedStatus()
        guard let before, let clock = after.deviceClock else { throw Self.oldService }
        let now = clock.realTime.formatted(.iso8601)
        if before.secondsAhead < 1 {
            context.console.output("The device's clock already showed real time: \(now).")
        } else {
            context.console.output("""
                Put the device's clock back to real time, \(now): it was \(DeviceClockText(clock: before).ahead) \
                ahead, and every date recorded in device time (install, launches, periodic checks, refresh \
                tasks) moved back as much.
                """)
        }
        if clock.timeScale != 1 {
            context.console.output("""
                timeScale is \(DeviceClockText.scale(clock.timeScale)) in \(context.paths.serviceConfigurationFile.path), \
                so device time runs ahead again from now: remove it and run backgroundassets-debug reset --yes \
                to stay in real time.
                """)
        }
        return .success
    }

    private static let oldService = DebugToolError(
        "The running service does not report its clock: it was built from older sources. "
            + "Run backgroundassets-debug reset --yes, and the next command starts the service built beside this tool.")
}
