/*
Abstract:
The app's command line, parsed into one small struct.
*/

import Foundation
import SessionKit

/// What one run of `wwdc-sessions` was asked to do.
struct AppOptions: Equatable {
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
        Usage: wwdc-sessions [--until-complete] [--timeout SECONDS] [--manifest-url URL] [--plain]
               wwdc-sessions list [--json]
               wwdc-sessions delete SESSION-ID

        Keeps the WWDC session videos on this device. At start it waits while the system is still
        installing the app, then refreshes the manifest and downloads every session that is not on the
        device, in the foreground, showing each download's progress. It runs until Ctrl-C.

        Options:
          --until-complete      Exit once every session is downloaded and verified (0), or as soon as
                                one has failed and nothing is left in flight (1).
          --timeout SECONDS     With --until-complete, give up after SECONDS (default 600) and exit 1.
          --manifest-url URL    Where to refresh the manifest from (default $BA_MANIFEST_URL, or the
                                BAManifestURL of the installed Info.plist, now \(SharedSettings.manifestURL().absoluteString)).
          --plain               Print one line per event even on a terminal, instead of a live table.
          --help                Show this help.

        Commands:
          list [--json]         Print the sessions of the local manifest and whether each is on the device.
          delete SESSION-ID     Remove a session's video; the next launch downloads it again.

        The device root is $BA_DEVICE_ROOT (default .device). On a terminal the live table replaces the
        log, which goes to the device log, system/log.
        Exit codes: 0 success, 1 failure or timeout, 64 bad usage, 130 after Ctrl-C, 143 after SIGTERM.
        """

    var command = Command.run
    /// Exit once every session is on the device, rather than run until interrupted.
    var untilComplete = false
    /// How long `untilComplete` waits.
    var timeout: Duration = .seconds(600)
    /// Where the manifest is refreshed from.
    var manifestURL = SharedSettings.manifestURL()
    /// Print events as lines, even on a terminal.
    var plain = false

    /// Parses `arguments` (without the program name); `--flag value` and `--flag=value` are both accepted.
    /// - Throws: ``AppError/usage(_:)`` naming the argument at fault.
    init(arguments: [String]) throws {
        var remaining = arguments[...]
        var json = false
        var positional: [String] = []
        while let argument = remaining.popFirst() {
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let flag = parts[0]
            func value() throws -> String {
                if parts.count == 2 { return parts[1] }
                guard let next = remaining.popFirst() else { throw AppError.usage("\(flag) needs a value.") }
                return next
            }
            switch flag {
            case "--help", "-h": command = .help
            case "--until-complete": untilComplete = true
            case "--plain": plain = true
            case "--json": json = true
            case "--timeout":
                let text = try value()
                guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                    throw AppError.usage("--timeout \(text) is not a positive number of seconds.")
                }
                timeout = .milliseconds(Int64((seconds * 1000).rounded(.up)))
            case "--manifest-url":
                let text = try value()
                guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                      scheme == "http" || scheme == "https", url.host?.isEmpty == false
                else { throw AppError.usage("--manifest-url \(text) is not an http or https URL.") }
                manifestURL = url
            default:
                guard !flag.hasPrefix("-") else { throw AppError.usage("\(flag) is not an option.") }
                positional.append(argument)
            }
        }
        guard command != .help else { return }
        try parseCommand(positional, json: json)
    }

    private mutating func parseCommand(_ positional: [String], json: Bool) throws {
        switch positional.first {
        case nil:
            guard !json else { throw AppError.usage("--json goes with the list command: wwdc-sessions list --json.") }
        case "list":
            guard positional.count == 1 else { throw AppError.usage("list takes no arguments.") }
            command = .list(json: json)
        case "delete":
            guard positional.count == 2 else { throw AppError.usage("delete takes one session identifier.") }
            command = .delete(sessionID: positional[1])
        case let other?:
            throw AppError.usage("\(other) is not a command; the commands are list and delete.")
        }
    }
}
