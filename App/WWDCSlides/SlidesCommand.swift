/*
Abstract:
What WWDC Slides takes on its command line, declared once for its parsing and its --help.
*/

import ArgumentParsing
import Foundation

/// One launch of WWDC Slides: list the sessions, open one, or remove a pack.
struct SlidesCommand: ParsableArguments {
    enum Action {
        case list
        case open(sessionID: String)
        case remove(assetPackID: String)
    }

    static let configuration = CommandConfiguration(
        name: "wwdc-slides",
        abstract: """
            Shows the slides and transcripts of WWDC sessions, kept on the device as managed asset packs: the
            session list arrives before the first launch, the transcripts right after the install, and each
            year's slides when a session of that year is opened.
            """,
        discussion: """
            Install the app and its extension first:
            swift run backgroundassets-debug install --app-plist App/WWDCSlides/Info.plist \\
                --extension-plist Extension/WWDCSlides/Info.plist --wait
            Exit codes: 0 success, 1 failure, 64 bad usage.
            """,
        subcommands: [List.self, Open.self, Remove.self],
        defaultSubcommand: "list")

    /// `list`.
    struct List: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "list", abstract: "Print the sessions the essential pack lists, and whether their slides are on the device.")
    }

    /// `open SESSION-ID`.
    struct Open: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "open", abstract: """
                Open a session: make sure its year's slides pack is on the device, downloading it when it isn't, \
                then show where its slides and transcript are.
                """)

        @Argument("SESSION-ID", help: "The session to open, such as wwdc23-10108.")
        var sessionID: String
    }

    /// `remove PACK-ID`.
    struct Remove: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "remove", abstract: "Remove an asset pack from the device; the next open downloads it again.")

        @Argument("PACK-ID", help: "The asset pack to remove, such as Slides-WWDC23.")
        var assetPackID: String
    }

    var action = Action.list

    mutating func readSubcommand<Failure>(from arguments: CommandLineArguments<Failure>) throws(Failure) {
        if let open = try arguments.values(of: Open.self) {
            action = .open(sessionID: open.sessionID)
        } else if let remove = try arguments.values(of: Remove.self) {
            action = .remove(assetPackID: remove.assetPackID)
        }
    }
}
