/*
Abstract:
What the app takes on its command line: the options of a run, and the list, delete and hold-control commands.
*/

import ArgumentParsing
import Foundation
import SessionKit

extension AppOptions {
    static let untilComplete = Flag("--until-complete", help: """
        Exit once every session is downloaded and verified (0), or as soon as one has failed and nothing is \
        left in flight (1).
        """)
    static let timeout = Option.seconds(
        "--timeout", help: "Give up after SECONDS and exit 1.", default: .seconds(600)
    ).requiring(untilComplete)
    static let manifestURL = Option(
        "--manifest-url", valueName: "URL", help: "Where to refresh the manifest from.",
        defaultDescription: "$BA_MANIFEST_URL, or the BAManifestURL of the installed Info.plist, now "
            + (SharedSettings.manifestURL()?.absoluteString ?? "none, as the app is not installed yet")
    ) { text throws(UsageError) in
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { throw UsageError("--manifest-url \(text) is not an http or https URL.") }
        return url
    }
    static let plain = Flag("--plain", help: "Print one line per event even on a terminal, instead of a live table.")
    static let json = Flag("--json", help: "Print the list as JSON.")
    static let holdSeconds = Option.seconds(
        "--seconds", help: "How long to keep control once it is granted.", default: .seconds(3))
    static let sessionID = Argument("SESSION-ID", help: "The session whose video to remove, such as wwdc23-10108.")

    static let list = CommandSignature(
        name: "list", abstract: "Print the sessions of the local manifest and whether each is on the device.",
        arguments: [json])
    static let delete = CommandSignature(
        name: "delete", abstract: "Remove a session's video; the next launch downloads it again.", arguments: [sessionID])
    static let holdControl = CommandSignature(
        name: "hold-control",
        abstract: "Take exclusive control of the downloads and keep it, as the app does while it changes its files.",
        arguments: [holdSeconds])

    static var signature: CommandSignature {
        CommandSignature(
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
            // Static declarations share their names with the values they fill; `Self.` picks the declaration.
            arguments: [Self.untilComplete, Self.timeout, Self.manifestURL, Self.plain],
            subcommands: [list, delete, holdControl])
    }
}
