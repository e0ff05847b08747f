/*
Abstract:
`simulate` (Apple's `-s`): sends an app's extension a content request now, as an install, update or check would.
*/

import BackgroundAssetsIPC
import ServiceClient

/// Triggers a content request without waiting for the event behind it, like Apple's
/// `xcrun backgroundassets-debug -s --app-install -b BUNDLE_ID`.
struct SimulateCommand: DebugSubcommand {
    static let aliases = ["-s", "--simulate"]
    static let configuration = CommandConfiguration(
        name: "simulate",
        abstract: "Send an app's extension a content request now (Apple's -s), launch or expire a task, or force-quit the app.",
        discussion: """
            Exactly one event is required. The service launches the extension with the request and resets
            the app's extension runtime budget first, so a test can repeat it as often as needed.
            `backgroundassets-debug -s --app-install -b ID` works as with Apple's tool.
            """)

    @Flag("--app-install", help: "Simulate the app's install (essential downloads permitted).", traits: [.exactlyOneOf("event")])
    var appInstall: Bool
    @Flag("--app-update", help: "Simulate an update of the app (essential downloads permitted).", traits: [.exactlyOneOf("event")])
    var appUpdate: Bool
    @Flag("--periodic-check", help: "Simulate a periodic check for new content.", traits: [.exactlyOneOf("event")])
    var periodicCheck: Bool
    @Option("--launch-task", valueName: "ID", help: """
        Run the app's pending Background Tasks request ID now, whatever the rules that hold it (earliest \
        begin date, spacing, the app in the foreground) (_simulateLaunchForTaskWithIdentifier).
        """, traits: [.exactlyOneOf("event")])
    var launchTask: String?
    @Option("--expire-task", valueName: "ID", help: """
        Run the expiration handler of the app's running task ID now (_simulateExpirationForTaskWithIdentifier).
        """, traits: [.exactlyOneOf("event")])
    var expireTask: String?
    @Flag("--force-quit", help: """
        Force-quit the app, as swiping it away in the app switcher does: its processes end, its background URL \
        session transfers are cancelled (NSURLErrorCancelledReasonUserForceQuitApplication), and the system does \
        not launch it for them until it is opened again.
        """, traits: [.exactlyOneOf("event")])
    var forceQuit: Bool
    @Option(appBundleID: "The app.", defaultDescription: "the only app installed; status lists them")
    var bundleIdentifier: String?

    /// What to simulate: a content request, or a Background Tasks launch or expiration.
    enum Event: Equatable {
        case contentRequest(ContentRequestKind)
        case task(TaskSimulation, identifier: String)
        case forceQuit
    }

    /// The event given; the signature lets exactly one through.
    var event: Event {
        if appInstall {
            .contentRequest(.install)
        } else if appUpdate {
            .contentRequest(.update)
        } else if periodicCheck {
            .contentRequest(.periodic)
        } else if let launchTask {
            .task(.launch, identifier: launchTask)
        } else if let expireTask {
            .task(.expire, identifier: expireTask)
        } else {
            .forceQuit
        }
    }

    /// The content request to send, when the event is one.
    var kind: ContentRequestKind? {
        if case let .contentRequest(kind) = event { kind } else { nil }
    }

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let connection = context.connection()
        defer { connection.disconnect() }
        switch event {
        case let .contentRequest(kind):
            try await sendContentRequest(kind, on: connection, in: context)
        case let .task(action, identifier):
            _ = try await connection.send(.tool(.simulateTask(action, identifier: identifier, bundleIdentifier: bundleIdentifier)))
            context.console.output(action == .launch
                ? "Launched the task \(identifier): its launch handler runs now, in the app if it is running, "
                    + "else in the app launched in the background. "
                    + "Run `backgroundassets-debug trace --follow` to watch it."
                : "Asked the running task \(identifier) to expire; its expiration handler runs now.")
        case .forceQuit:
            let app = try await connection.send(.tool(.forceQuit(bundleIdentifier: bundleIdentifier))).expectedApp(answering: "simulate")
            context.console.output("Force-quit \(StatusFormatter.shortened(app.bundleIdentifier)): its processes ended and its "
                + "background transfers were cancelled; it is not launched for their events until it is opened again.")
        }
        return .success
    }

    private func sendContentRequest(
        _ kind: ContentRequestKind, on connection: ServiceConnection, in context: ToolContext
    ) async throws {
        let app = try await connection.send(.tool(.simulate(kind, bundleIdentifier: bundleIdentifier)))
            .expectedApp(answering: "simulate")
        context.console.output("Sent \(kind == .periodic ? "a" : "an") \(kind) content request to the extension of "
            + "\(StatusFormatter.shortened(app.bundleIdentifier)) version \(app.version), and reset its runtime budget "
            + "(\(DurationText.duration(app.runtimeBudgetLeft)) left). "
            + "Run `backgroundassets-debug trace --follow -b \(app.bundleIdentifier)` to watch it.")
    }
}
