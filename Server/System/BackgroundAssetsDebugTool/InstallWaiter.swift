/*
Abstract:
Follows an install to its end: shows each progress event until the service says the app is launchable.
*/

import BackgroundAssetsIPC

/// Drives `install --wait` from the `awaitLaunchable` request to its answer.
struct InstallWaiter {
    /// What the waiter reacts to, in the order the service sent it.
    enum Signal: Sendable {
        /// An `installProgress` event: the app and its install's progress.
        case progress(bundleIdentifier: String, InstallProgress)
        /// The answer to `awaitLaunchable`, or why it never came.
        case answer(Result<ServerResponse, any Error>)
    }

    /// How many times in a row the waiter follows the install again after losing the service.
    static let maximumReconnections = 5

    private let bundleIdentifier: String
    private let console: Console
    private var reporter: InstallProgressReporter
    /// Asks the service again for the answer; the connection starts the service if it is not running.
    private let askAgain: () -> Void
    private var reconnections = 0

    init(console: Console, bundleIdentifier: String, askAgain: @escaping () -> Void) {
        self.bundleIdentifier = bundleIdentifier
        self.console = console
        self.askAgain = askAgain
        reporter = InstallProgressReporter(console: console, bundleIdentifier: bundleIdentifier)
    }

    /// Shows progress until the answer arrives.
    /// - Parameter signals: The install's progress events and, last, the answer.
    /// - Returns: The app, launchable.
    /// - Throws: ``DebugToolError`` when the service refused or was lost; the install itself goes on.
    mutating func wait(for signals: AsyncStream<Signal>) async throws -> AppStatus {
        for await signal in signals {
            switch signal {
            case let .progress(app, progress):
                guard app == bundleIdentifier else { continue }
                reconnections = 0
                reporter.update(progress)
            case let .answer(.failure(error)) where reconnections < Self.maximumReconnections:
                // The service went away (a crash, a kill); the install resumes when it starts again.
                reconnections += 1
                reporter.finishLine()
                console.error("Lost the service (\(DebugTool.describe(error))); starting it again to follow the install.")
                askAgain()
            case let .answer(result):
                defer { reporter.finishLine() }
                let app = try launchable(from: result)
                // The last event can predate the final bytes; the answer's progress completes the bar.
                reporter.update(app.progress)
                return app
            }
        }
        throw lost("the tool stopped listening")
    }

    private func launchable(from result: Result<ServerResponse, any Error>) throws -> AppStatus {
        let response: ServerResponse
        do {
            response = try result.get()
        } catch {
            throw lost(DebugTool.describe(error))
        }
        if case let .failure(failure) = response {
            throw DebugToolError("The service stopped waiting for \(bundleIdentifier): \(failure.message)")
        }
        return try response.expectedApp(answering: "awaitLaunchable")
    }

    private func lost(_ reason: String) -> DebugToolError {
        let sentence = reason.hasSuffix(".") ? reason : reason + "."
        return DebugToolError("Stopped waiting for \(bundleIdentifier) to become launchable: \(sentence) "
            + "The install goes on when the service runs again; run `backgroundassets-debug status` to follow it.")
    }
}
