/*
Abstract:
The unpack probe's command line, declared once for its parsing and its help.
*/

import ArgumentParsing
import Foundation

/// What one run of `asset-pack-unpack-probe` is asked to do.
struct UnpackProbeOptions: ParsableArguments {
    static let archive = Argument("ARCHIVE", help: "The asset-pack archive to install.")
    static let packsFolder = Argument("PACKS-FOLDER", help: "The folder the packs are installed in.")
    static let pauseAfter = Option<Int>.number(
        "--pause-after", valueName: "N", in: 1...Int.max, expected: "a count of files from 1",
        help: "After the Nth file, print \"paused\" and wait, mid-unpack, until killed.")

    static let signature = CommandSignature(
        name: "asset-pack-unpack-probe",
        abstract: "Installs ARCHIVE into PACKS-FOLDER, printing \"unpacked N\" after each file.",
        discussion: "Exit codes: 0 once installed, 1 when the archive is refused, 64 for bad arguments.",
        // Static declarations share their names with the values they fill; `Self.` picks the declaration.
        arguments: [Self.archive, Self.packsFolder, Self.pauseAfter])

    var archive: URL
    var packsFolder: URL
    var pauseAfter: Int?

    init(parsing arguments: CommandLineArguments<UsageError>) throws(UsageError) {
        archive = URL(fileURLWithPath: try arguments.positional(Self.archive))
        packsFolder = URL(fileURLWithPath: try arguments.positional(Self.packsFolder))
        pauseAfter = try arguments.option(Self.pauseAfter)
    }
}
