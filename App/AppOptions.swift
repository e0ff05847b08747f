/*
Abstract:
The app's command line: each option declared once, on the property it fills, and the command the words chose.
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
    @Flag("--until-complete", help: """
        Exit once every session is downloaded and verified (0), or as soon as one has failed and nothing is \
        left in flight (1).
        """)
    var untilComplete: Bool
    /// How long `untilComplete` waits.
    @Option("--timeout", help: "Give up after SECONDS and exit 1.", traits: [.requiring("--until-complete")], as: .seconds)
    var timeout: Duration = .seconds(600)
    /// Where the manifest is refreshed from; `nil` before the app is installed.
    @Option(
        "--manifest-url", valueName: "URL", help: "Where to refresh the manifest from.",
        defaultDescription: "$BA_MANIFEST_URL, or the BAManifestURL of the installed Info.plist, now "
            + (SharedSettings.manifestURL()?.absoluteString ?? "none, as the app is not installed yet"),
        as: ArgumentConversion { text throws(UsageError) in
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", url.host?.isEmpty == false
            else { throw UsageError("--manifest-url \(text) is not an http or https URL.") }
            return url
        })
    var manifestURL: URL?
    /// Print events as lines, even on a terminal.
    @Flag("--plain", help: "Print one line per event even on a terminal, instead of a live table.")
    var plain: Bool

    mutating func validate() throws(UsageError) {
        if manifestURL == nil { manifestURL = SharedSettings.manifestURL() }
    }

    mutating func readSubcommand<Failure>(from arguments: CommandLineArguments<Failure>) throws(Failure) {
        if let list = try arguments.values(of: List.self) {
            command = .list(json: list.json)
        } else if let delete = try arguments.values(of: Delete.self) {
            command = .delete(sessionID: delete.sessionID)
        } else if let hold = try arguments.values(of: HoldControl.self) {
            command = .holdControl(hold.seconds)
        }
    }
}
