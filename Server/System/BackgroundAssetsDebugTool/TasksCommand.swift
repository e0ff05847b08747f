/*
Abstract:
`tasks`: the Background Tasks requests that wait and the tasks that run, with when each may run or why not.
*/

import BackgroundAssetsIPC
import Foundation

/// Lists every pending Background Tasks request and every running task, or one app's.
struct TasksCommand: DebugSubcommand {
    static let configuration = CommandConfiguration(
        name: "tasks", abstract: "List the Background Tasks requests waiting to run and the tasks running.",
        discussion: """
            One line per request: the app, the task identifier, refresh, processing or continued processing,
            pending or running, its earliest begin date (device time), what it requires, and when it may run
            or the rule that holds it (waiting: earliest begin, spacing, app in the foreground, needs external
            power, needs network, Low Power Mode, Background App Refresh off; queued: no room); --json names
            the rule in waitingFor and when it ends in notBefore; a
            running continued-processing task shows its progress, title and subtitle. Run a pending one now
            with `simulate --launch-task ID`; run a running one's expiration handler (for a
            continued-processing task, a person cancelling it) with `simulate --expire-task ID`.
            """)

    @Flag("--json", help: "Print the requests as JSON (dates in ISO 8601).")
    var json: Bool
    @Option(appBundleID: "Only this app's requests.")
    var bundleIdentifier: String?

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection()
        defer { connection.disconnect() }
        let status = try await connection.send(.core(.fetchStatus)).expectedStatus()
        let tasks = (status.tasks ?? []).filter { bundleIdentifier == nil || $0.bundleIdentifier == bundleIdentifier }
        if json {
            context.console.output(try StatusFormatter.json(tasks))
        } else if tasks.isEmpty {
            context.console.output("No Background Tasks requests are pending or running"
                + (bundleIdentifier.map { " for \($0)." } ?? "."))
        } else {
            context.console.output(TaskFormatter(tasks: tasks).lines().joined(separator: "\n"))
            // The dates are device time: say so when they run apart from real time, or they look wrong.
            if let line = status.deviceClock.flatMap({ DeviceClockText(clock: $0).statusLine }) {
                context.console.error(line)
            }
        }
        return .success
    }
}
