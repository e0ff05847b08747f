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

    static let sessionID = Argument("SESSION-ID", help: "The session to open, such as wwdc23-10108.")
    static let assetPackID = Argument("PACK-ID", help: "The asset pack to remove, such as Slides-WWDC23.")

    static let listCommand = CommandSignature(
        name: "list", abstract: "Print the sessions the essential pack lists, and whether their slides are on the device.")
    static let openCommand = CommandSignature(
        name: "open", abstract: """
            Open a session: make sure its year's slides pack is on the device, downloading it when it isn't, \
            then show where its slides and transcript are.
            """,
        arguments: [sessionID])
    static let removeCommand = CommandSignature(
        name: "remove", abstract: "Remove an asset pack from the device; the next open downloads it again.",
        arguments: [assetPackID])

    static let signature = CommandSignature(
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
        subcommands: [listCommand, openCommand, removeCommand],
        defaultSubcommand: "list")

    var action: Action

    init(parsing arguments: CommandLineArguments<UsageError>) throws(UsageError) {
        if arguments.selected(Self.openCommand) {
            action = .open(sessionID: try arguments.positional(Self.sessionID))
        } else if arguments.selected(Self.removeCommand) {
            action = .remove(assetPackID: try arguments.positional(Self.assetPackID))
        } else {
            action = .list
        }
    }
}
