/*
Abstract:
Installs in progress, the connections waiting at each app's launch gate, and how each app's last install ended.
*/

import BackgroundAssetsIPC

/// Each app's install or update from its start until the app is launchable, and who waits for it.
///
/// An app is launchable exactly when no run is recorded for it. The last run's summary and final
/// progress are kept after it ends, so a launch gate that asks later still learns how it went.
struct InstallTracker {
    /// A connection waiting in `awaitLaunchable`, and the request to answer.
    struct LaunchWaiter: Equatable {
        var connection: UInt64
        var requestID: UInt64
        var recordLaunch: Bool
    }

    /// How an install ended: the summary `install --wait` prints, and the progress at the end.
    struct Outcome: Equatable {
        var summary: String
        var progress: InstallProgress
        /// Why the install got no content (its manifest could not be fetched), when it got none.
        var contentFailure: String?
    }

    private var runs: [String: InstallRun] = [:]
    private var waiters: [String: [LaunchWaiter]] = [:]
    private var outcomes: [String: Outcome] = [:]
    /// Installs whose essential outcomes the extension has received but may still be handling: it
    /// moves the files into place under exclusive control, which it asks for as its call returns.
    private var awaitingExtension: Set<String> = []

    /// Whether no install is running.
    var isEmpty: Bool { runs.isEmpty }

    /// The apps installing or updating now.
    var apps: Set<String> { Set(runs.keys) }

    /// The running install of an app, changed in place as it advances.
    subscript(app: String) -> InstallRun? {
        get { runs[app] }
        set { runs[app] = newValue }
    }

    /// Starts an app's install or update; the previous one's outcome is forgotten.
    mutating func begin(_ run: InstallRun, for app: String) {
        runs[app] = run
        outcomes[app] = nil
    }

    /// Ends an app's install: the app is launchable from now on.
    /// - Parameters:
    ///   - app: The app.
    ///   - note: A sentence for the summary, when the install did not end the ordinary way.
    ///   - contentFailure: Why the install got no content at all, when its manifest could not be fetched.
    /// - Returns: The run that ended, or `nil` when none was running.
    mutating func finish(_ app: String, note: String?, contentFailure: String? = nil) -> InstallRun? {
        guard let run = runs.removeValue(forKey: app) else { return nil }
        // The run's own complete progress: an install that ends without essential downloads no longer
        // counts the allowance, which only stood in for them.
        var ended = run
        ended.phase = .complete
        outcomes[app] = Outcome(summary: run.summary(note: note), progress: ended.progress, contentFailure: contentFailure)
        return run
    }

    /// Forgets an app's install, as when it is uninstalled meanwhile.
    /// - Returns: The connections that were waiting for it, to be told.
    mutating func cancel(_ app: String) -> [LaunchWaiter] {
        runs[app] = nil
        outcomes[app] = nil
        return waiters.removeValue(forKey: app) ?? []
    }

    /// How an app's last install ended, once it has.
    func outcome(of app: String) -> Outcome? {
        outcomes[app]
    }

    /// Adds a connection to those waiting for an app to become launchable.
    mutating func wait(_ waiter: LaunchWaiter, for app: String) {
        waiters[app, default: []].append(waiter)
    }

    /// The connections waiting for an app, in the order they asked.
    func waiters(of app: String) -> [LaunchWaiter] {
        waiters[app] ?? []
    }

    /// Removes and returns the connections waiting for an app, to answer them.
    mutating func takeWaiters(of app: String) -> [LaunchWaiter] {
        waiters.removeValue(forKey: app) ?? []
    }

    /// Forgets a connection that closed, wherever it waited.
    /// Holds an install's end until the app's extension is done: idle, or gone.
    mutating func holdUntilExtensionIsDone(_ app: String) {
        awaitingExtension.insert(app)
    }

    /// Whether an install waits for its extension to be done; forgets it either way.
    mutating func takeHeldForExtension(_ app: String) -> Bool {
        awaitingExtension.remove(app) != nil
    }

    mutating func connectionClosed(_ connection: UInt64) {
        for app in waiters.keys {
            waiters[app]?.removeAll { $0.connection == connection }
        }
    }
}
