/*
Abstract:
The app's command line, declared once for its parsing and its help, and parsed into one small struct.
*/

import ArgumentParsing
import Foundation
import SessionKit

/// What one run of the app was asked to do.
struct AppOptions: Equatable, ParsableArguments {
    /// The name that runs the app: its executable's, so a copy of the sample under a new name
    /// (Docs/UsingAsTemplate.md) names itself in its help and its messages.
    static let command = ProcessInfo.processInfo.processName

    /// The commands the app understands.
    enum Command: Equatable {
        /// Keep the sessions on the device, showing their downloads: what opening the app does.
        case run
        /// Print the sessions of the local manifest and whether each is on the device.
        case list(json: Bool)
        /// Remove a session's video from the device.
        case delete(sessionID: String)
        /// Take exclusive control of the downloads and keep it for a while.
        case holdControl(Duration)
    }

    var command = Command.run
    /// Exit once every session is on the device, rather than run until interrupted.
    var untilComplete = false
    /// How long `untilComplete` waits.
    var timeout: Duration
    /// Where the manifest is refreshed from; `nil` before the app is installed.
    var manifestURL: URL?
    /// Print events as lines, even on a terminal.
    var plain = false

    /// Reads the options; `--flag value` and `--flag=value` are both accepted.
    /// - Throws: ``UsageError`` naming the argument at fault.
    init(parsing arguments: CommandLineArguments<UsageError>) throws(UsageError) {
        untilComplete = arguments.flag(Self.untilComplete)
        timeout = try arguments.value(Self.timeout)
        manifestURL = try arguments.option(Self.manifestURL) ?? SharedSettings.manifestURL()
        plain = arguments.flag(Self.plain)
        if arguments.selected(Self.list) {
            command = .list(json: arguments.flag(Self.json))
        } else if arguments.selected(Self.delete) {
            command = .delete(sessionID: try arguments.positional(Self.sessionID))
        } else if arguments.selected(Self.holdControl) {
            command = .holdControl(try arguments.value(Self.holdSeconds))
        }
    }
}
