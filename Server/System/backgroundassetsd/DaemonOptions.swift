/*
Abstract:
The service's command line, declared once for its parsing and its help.
*/

import ArgumentParsing

/// What one run of `backgroundassetsd` was asked to do.
struct DaemonOptions: ParsableArguments {
    static let configuration = CommandConfiguration(
        name: "backgroundassetsd",
        abstract: """
            The Background Assets system service. Clients start it on demand; it serves the device root
            named by BA_DEVICE_ROOT (default .device/ in the current directory) and exits when idle.
            """,
        discussion: "Exit codes: 0 stopped or already running, 1 could not start, 64 bad option, 78 bad config.json.")

    /// Whether to log to the terminal too.
    @Flag("--foreground", help: "Log to the terminal as well as to the device log (for demos).")
    var foreground: Bool
}
