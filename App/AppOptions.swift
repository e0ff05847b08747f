/*
Abstract:
The app's command line, parsed into one small struct.
*/

import ArgumentParsing
import Foundation
import SessionKit

/// What one run of the app was asked to do.
struct AppOptions: Equatable {
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
        /// Print the usage.
        case help
    }

    static let usage = """
        Usage: \(command) [--until-complete] [--timeout SECONDS] [--manifest-url URL] [--plain]
               \(command) list [--json]
               \(command) delete SESSION-ID

        Keeps the session videos the manifest lists on this device. At start it waits while the system
        is still installing the app, then refreshes the manifest and downloads every session that is not
        on the device, in the foreground, showing each download's progress. It runs until Ctrl-C.

        Options:
          --until-complete      Exit once every session is downloaded and verified (0), or as soon as
                                one has failed and nothing is left in flight (1).
          --timeout SECONDS     With --until-complete, give up after SECONDS (default 600) and exit 1.
          --manifest-url URL    Where to refresh the manifest from (default $BA_MANIFEST_URL, or the
                                BAManifestURL of the installed Info.plist, now \(Self.installedManifestURL)).
          --plain               Print one line per event even on a terminal, instead of a live table.
          --help                Show this help.

        Commands:
          list [--json]         Print the sessions of the local manifest and whether each is on the device.
          delete SESSION-ID     Remove a session's video; the next launch downloads it again.

        The device root is $BA_DEVICE_ROOT (default .device). On a terminal the live table replaces the
        log, which goes to the device log, system/log.
        Exit codes: 0 success, 1 failure or timeout, 64 bad usage, 130 after Ctrl-C, 143 after SIGTERM.
        """

    /// The manifest URL the help shows: the installed app's, or why there is none yet.
    private static var installedManifestURL: String {
        SharedSettings.manifestURL()?.absoluteString ?? "none, as the app is not installed yet"
    }

    var command = Command.run
    /// Exit once every session is on the device, rather than run until interrupted.
    var untilComplete = false
    /// How long `untilComplete` waits.
    var timeout: Duration = .seconds(600)
    /// Where the manifest is refreshed from; `nil` before the app is installed.
    var manifestURL = SharedSettings.manifestURL()
    /// Print events as lines, even on a terminal.
    var plain = false

    /// Parses `arguments` (without the program name); `--flag value` and `--flag=value` are both accepted.
    /// - Throws: ``UsageError`` naming the argument at fault.
    init(arguments: [String]) throws(UsageError) {
        var arguments = LegacyCommandLineArguments(arguments, command: Self.command)
        if arguments.flag("--help", "-h") {
            command = .help
            return
        }
        untilComplete = arguments.flag("--until-complete")
        plain = arguments.flag("--plain")
        let json = arguments.flag("--json")
        if let text = try arguments.option("--timeout") {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw UsageError("--timeout \(text) is not a positive number of seconds.")
            }
            timeout = .milliseconds(Int64((seconds * 1000).rounded(.up)))
        }
        if let text = try arguments.option("--manifest-url") {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", url.host?.isEmpty == false
            else { throw UsageError("--manifest-url \(text) is not an http or https URL.") }
            manifestURL = url
        }
        switch arguments.optionalPositional() {
        case nil:
            guard !json else { throw UsageError("--json goes with the list command: \(Self.command) list --json.") }
        case "list":
            command = .list(json: json)
        case "delete":
            guard let session = arguments.optionalPositional() else {
                throw UsageError("delete takes one session identifier.")
            }
            command = .delete(sessionID: session)
        case let other?:
            throw UsageError("\(other) is not a command; the commands are list and delete.")
        }
        try arguments.finish()
    }
}
