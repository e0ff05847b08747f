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
        /// Time passed; an install whose essential downloads made no progress for a while says why.
        case tick
    }

    /// How many times in a row the waiter follows the install again after losing the service.
    static let maximumReconnections = 5

    private let bundleIdentifier: String
    private let console: Console
    private var reporter: InstallProgressReporter
    /// Asks the service again for the answer; the connection starts the service if it is not running.
    private let askAgain: () -> Void
    /// What the install's essential downloads wait for, from the service's status, when they wait for a server.
    private let waitReason: () async -> String?
    private var reconnections = 0
    /// The last progress shown and when it changed, to notice an essential phase that stands still.
    private var lastProgress: InstallProgress?
    private var lastChange = ContinuousClock.now
    /// The wait last reported, so each reason is said once.
    private var reportedWait: String?

    init(console: Console, bundleIdentifier: String, askAgain: @escaping () -> Void,
         waitReason: @escaping () async -> String? = { nil }) {
        self.bundleIdentifier = bundleIdentifier
        self.console = console
        self.askAgain = askAgain
        self.waitReason = waitReason
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
                if progress != lastProgress {
                    lastProgress = progress
                    lastChange = .now
                    reportedWait = nil
                }
                reporter.update(progress)
            case .tick:
                await explainStandstill()
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

    /// Says what an essential phase that has stood still for a while waits for, and what to do: a
    /// server that is down must not look like a hang.
    private mutating func explainStandstill() async {
        guard lastProgress?.phase == .downloadingEssentialAssets,
              ContinuousClock.now - lastChange >= ServerWait.quietPeriod else { return }
        // The status lists every download: asked at most once per quiet period.
        lastChange = .now
        guard let reason = await waitReason(), reason != reportedWait else { return }
        reportedWait = reason
        reporter.finishLine()
        console.error("\(reason) The install's essential downloads wait for it, and fail after essentialWait "
            + "(30 s by default) without progress; the app then becomes launchable without them. Start the server to "
            + "let them finish, or press Ctrl-C to stop waiting (the install goes on).")
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
