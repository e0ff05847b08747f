/*
Abstract:
What the app says about itself in its help, and its list, delete and hold-control commands.
*/

import ArgumentParsing
import Foundation

extension AppOptions {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: command,
            abstract: """
                Keeps the session videos the manifest lists on this device. At start it waits while the system
                is still installing the app, then refreshes the manifest and downloads every session that is not
                on the device, in the foreground, showing each download's progress. It runs until Ctrl-C.
                """,
            discussion: """
                The device root is $BA_DEVICE_ROOT (default .device). On a terminal the live table replaces the
                log, which goes to the device log, system/log.
                Exit codes: 0 success, 1 failure or timeout, 64 bad usage, 130 after Ctrl-C, 143 after SIGTERM.
                """,
            subcommands: [List.self, Delete.self, HoldControl.self])
    }

    /// `list [--json]`.
    struct List: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "list", abstract: "Print the sessions of the local manifest and whether each is on the device.")

        @Flag("--json", help: "Print the list as JSON.")
        var json: Bool
    }

    /// `delete SESSION-ID`.
    struct Delete: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "delete", abstract: "Remove a session's video; the next launch downloads it again.")

        @Argument("SESSION-ID", help: "The session whose video to remove, such as wwdc23-10108.")
        var sessionID: String
    }

    /// `hold-control [--seconds SECONDS]`.
    struct HoldControl: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "hold-control",
            abstract: "Take exclusive control of the downloads and keep it, as the app does while it changes its files.")

        @Option("--seconds", help: "How long to keep control once it is granted.", as: .seconds)
        var seconds: Duration = .seconds(3)
    }
}
