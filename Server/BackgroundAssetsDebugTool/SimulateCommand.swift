/*
Abstract:
`simulate` (Apple's `-s`): sends an app's extension a content request now, as an install, update or check would.
*/

import BackgroundAssetsIPC

/// Triggers a content request without waiting for the event behind it, like Apple's
/// `xcrun backgroundassets-debug -s --app-install -b BUNDLE_ID`.
struct SimulateCommand: DebugSubcommand {
    static let name = "simulate"
    static let aliases = ["-s", "--simulate"]
    static let synopsis = "--app-install | --app-update | --periodic-check [--app-bundle-id ID | -b ID]"
    static let summary = "Send an app's extension a content request now (Apple's -s)."
    static let details = """
          --app-install               Simulate the app's install (essential downloads permitted).
          --app-update                Simulate an update of the app (essential downloads permitted).
          --periodic-check            Simulate a periodic check for new content.
          --app-bundle-id ID, -b ID   The app (default: the only app installed; status lists them).
        Exactly one event is required. The service launches the extension with the request and resets
        the app's extension runtime budget first, so a test can repeat it as often as needed.
        `backgroundassets-debug -s --app-install -b ID` works as with Apple's tool.
        """

    /// The event flags, in the order the usage lists them.
    static let events: [(flag: String, kind: ContentRequestKind)] = [
        ("--app-install", .install), ("--app-update", .update), ("--periodic-check", .periodic),
    ]

    var kind: ContentRequestKind
    var bundleIdentifier: String?

    init(parsing arguments: inout CommandLineArguments) throws(DebugToolError) {
        let given = Self.events.filter { arguments.flag($0.flag) }
        bundleIdentifier = try arguments.option("--app-bundle-id", alias: "-b")
        let flags = Self.events.map(\.flag).joined(separator: ", ")
        guard let first = given.first else {
            throw .usage("simulate needs one event: \(flags).")
        }
        guard given.count == 1 else {
            throw .usage("simulate sends one event at a time, not \(given.map(\.flag).joined(separator: " and ")); "
                + "run it once for each.")
        }
        kind = first.kind
    }

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection()
        defer { connection.disconnect() }
        let app = try await connection.send(.simulate(kind, bundleIdentifier: bundleIdentifier))
            .expectedApp(answering: "simulate")
        context.console.output("Sent \(kind == .periodic ? "a" : "an") \(kind) content request to the extension of "
            + "\(StatusFormatter.shortened(app.bundleIdentifier)) version \(app.version), and reset its runtime budget "
            + "(\(DurationText.duration(app.runtimeBudgetLeft)) left). "
            + "Run `backgroundassets-debug trace --follow --app \(app.bundleIdentifier)` to watch it.")
        return .success
    }
}
