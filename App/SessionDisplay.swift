/*
Abstract:
What the app shows while it runs: a live table on a terminal, one line per event otherwise.
*/

import BackgroundAssets

/// Shows the install's progress, then the sessions and what happens to them.
protocol SessionDisplay: Sendable {
    /// Shows how far the system has come installing the app, while the app waits to launch.
    func showInstallProgress(_ progress: BAInstallProgress)

    /// Ends the install's progress; the sessions come next.
    func installEnded(_ outcome: String)

    /// Reports something that happened to the manifest or a session.
    func show(_ event: SessionEvent)

    /// How often the display wants ``refresh(_:)`` called, or `nil` when events are all it shows.
    var refreshInterval: Duration? { get }

    /// Shows the sessions' current statuses.
    func refresh(_ statuses: [SessionStatus])

    /// Shows a closing message below what is on screen; nothing is shown afterwards.
    /// - Parameters:
    ///   - message: What the run came to.
    ///   - isError: Whether the message reports a failure, for standard error.
    func finish(message: String, isError: Bool)
}
