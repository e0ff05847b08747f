/*
Abstract:
`simulate` (Apple's `-s`): sends an app's extension a content request now, as an install, update or check would.
*/

import BackgroundAssets
import BackgroundAssetsIPC

/// Triggers a content request without waiting for the event behind it, like Apple's
/// `xcrun backgroundassets-debug -s --app-install -b BUNDLE_ID`.
struct SimulateCommand: DebugSubcommand {
    static let name = "simulate"
    static let aliases = ["-s", "--simulate"]
    static let synopsis =
        "--app-install | --app-update | --periodic-check | --launch-task ID | --expire-task ID | --force-quit "
        + "[--app-bundle-id ID | -b ID]"
    static let summary = "Send an app's extension a content request now (Apple's -s), launch or expire a task, or force-quit the app."
    static let details = """
          --app-install               Simulate the app's install (essential downloads permitted).
          --app-update                Simulate an update of the app (essential downloads permitted).
          --periodic-check            Simulate a periodic check for new content.
          --launch-task ID            Run the app's pending Background Tasks request ID now, whatever its
                                      earliest begin date (_simulateLaunchForTaskWithIdentifier).
          --expire-task ID            Run the expiration handler of the app's running task ID now
                                      (_simulateExpirationForTaskWithIdentifier).
          --force-quit                Force-quit the app, as swiping it away in the app switcher does: its
                                      processes end, its background URL session transfers are cancelled
                                      (NSURLErrorCancelledReasonUserForceQuitApplication), and the system
                                      does not launch it for them until it is opened again.
          --app-bundle-id ID, -b ID   The app (default: the only app installed; status lists them).
        Exactly one event is required. The service launches the extension with the request and resets
        the app's extension runtime budget first, so a test can repeat it as often as needed.
        `backgroundassets-debug -s --app-install -b ID` works as with Apple's tool.
        """

    /// The event flags, in the order the usage lists them.
    static let events: [(flag: String, kind: ContentRequestKind)] = [
        ("--app-install", .install), ("--app-update", .update), ("--periodic-check", .periodic),
    ]

    /// What to simulate: a content request, or a Background Tasks launch or expiration.
    enum Event: Equatable {
        case contentRequest(ContentRequestKind)
        case task(TaskSimulation, identifier: String)
        case forceQuit
    }

    var event: Event

    /// The content request to send, when the event is one.
    var kind: ContentRequestKind? {
        if case let .contentRequest(kind) = event { kind } else { nil }
    }
    var bundleIdentifier: String?

    init(parsing arguments: inout SubcommandArguments) throws(DebugToolError) {
        var given: [(flag: String, event: Event)] = Self.events.filter { arguments.flag($0.flag) }
            .map { ($0.flag, .contentRequest($0.kind)) }
        if let identifier = try arguments.option("--launch-task") {
            given.append(("--launch-task", .task(.launch, identifier: identifier)))
        }
        if let identifier = try arguments.option("--expire-task") {
            given.append(("--expire-task", .task(.expire, identifier: identifier)))
        }
        if arguments.flag("--force-quit") { given.append(("--force-quit", .forceQuit)) }
        bundleIdentifier = try arguments.option("--app-bundle-id", alias: "-b")
        // A misspelled event is named as such, rather than reported as no event at all.
        try arguments.finish()
        let flags = (Self.events.map(\.flag) + ["--launch-task ID", "--expire-task ID", "--force-quit"]).joined(separator: ", ")
        guard let first = given.first else {
            throw .usage("simulate needs one event: \(flags).")
        }
        guard given.count == 1 else {
            throw .usage("simulate sends one event at a time, not \(given.map(\.flag).joined(separator: " and ")); "
                + "run it once for each.")
        }
        event = first.event
    }

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection()
        defer { connection.disconnect() }
        switch event {
        case let .contentRequest(kind):
            try await sendContentRequest(kind, on: connection, in: context)
        case let .task(action, identifier):
            _ = try await connection.send(.simulateTask(action, identifier: identifier, bundleIdentifier: bundleIdentifier))
            context.console.output(action == .launch
                ? "Launched the task \(identifier): its launch handler runs now, in the app if it is running, "
                    + "else in the app launched in the background. "
                    + "Run `backgroundassets-debug trace --follow` to watch it."
                : "Asked the running task \(identifier) to expire; its expiration handler runs now.")
        case .forceQuit:
            let app = try await connection.send(.forceQuit(bundleIdentifier: bundleIdentifier)).expectedApp(answering: "simulate")
            context.console.output("Force-quit \(StatusFormatter.shortened(app.bundleIdentifier)): its processes ended and its "
                + "background transfers were cancelled; it is not launched for their events until it is opened again.")
        }
        return .success
    }

    private func sendContentRequest(
        _ kind: ContentRequestKind, on connection: ServiceConnection, in context: ToolContext
    ) async throws {
        let app = try await connection.send(.simulate(kind, bundleIdentifier: bundleIdentifier))
            .expectedApp(answering: "simulate")
        context.console.output("Sent \(kind == .periodic ? "a" : "an") \(kind) content request to the extension of "
            + "\(StatusFormatter.shortened(app.bundleIdentifier)) version \(app.version), and reset its runtime budget "
            + "(\(DurationText.duration(app.runtimeBudgetLeft)) left). "
            + "Run `backgroundassets-debug trace --follow --app \(app.bundleIdentifier)` to watch it.")
    }
}
