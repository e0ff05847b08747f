/*
Abstract:
The unpack probe's command line, declared once for its parsing and its help.
*/

import ArgumentParsing
import Foundation

/// What one run of `asset-pack-unpack-probe` is asked to do.
struct UnpackProbeOptions: ParsableArguments {
    static let configuration = CommandConfiguration(
        name: "asset-pack-unpack-probe",
        abstract: "Installs ARCHIVE into PACKS-FOLDER, printing \"unpacked N\" after each file.",
        discussion: "Exit codes: 0 once installed, 1 when the archive is refused, 64 for bad arguments.")

    @Argument("ARCHIVE", help: "The asset-pack archive to install.")
    var archivePath: String
    @Argument("PACKS-FOLDER", help: "The folder the packs are installed in.")
    var packsFolderPath: String
    @Option(
        "--pause-after", valueName: "N", help: "After the Nth file, print \"paused\" and wait, mid-unpack, until killed.",
        as: .number(in: 1...Int.max, expected: "a count of files from 1"))
    var pauseAfter: Int?

    var archive: URL { URL(fileURLWithPath: archivePath) }
    var packsFolder: URL { URL(fileURLWithPath: packsFolderPath) }
}
