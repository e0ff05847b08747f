/*
Abstract:
What the game takes on its command line, declared once for its parsing and its --help.
*/

import ArgumentParsing
import Foundation

/// How one launch of the game runs.
struct GameOptions: ParsableArguments {
    static let configuration = CommandConfiguration(
        name: "background-game",
        abstract: """
            Checks the game's version file and, when the server has newer game data, downloads it with a
            background URLSession. You can leave the game at once: the system finishes the download, launches
            the game in the background for it, and a processing task verifies and unpacks the data.
            """,
        discussion: """
            The version file's URL is GameVersionURL in the installed Info.plist. Install the game first:
            swift run backgroundassets-debug install --app-plist App/BackgroundGame/Info.plist
            """)

    @Flag("--until-ready", help: """
        Stay until the newest game data is unpacked and verified, starting the download when needed, then \
        exit 0; exit 1 with the reason otherwise.
        """)
    var untilReady: Bool
    @Option("--timeout", help: "Give up after SECONDS and exit 1.", traits: [.requiring("--until-ready")], as: .seconds)
    var timeout: Duration = .seconds(600)
}
