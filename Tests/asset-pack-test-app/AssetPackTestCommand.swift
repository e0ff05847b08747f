/*
Abstract:
The test app's command line, declared once for its parsing and its --help: one command per AssetPackManager call.
*/

import ArgumentParsing
import Foundation

/// What one launch of `asset-pack-test-app` is asked to do.
struct AssetPackTestCommand: ParsableArguments {
    enum Kind {
        case ensure(packID: String, latest: Bool, callers: Int)
        case read(path: String, packID: String?, output: String)
        case url(path: String, output: String)
        case timeEnsure(packID: String, count: Int)
        case remove(packID: String)
        case check
        case manifest
    }

    static let packID = Argument("ID", help: "The asset pack's identifier.")
    static let path = Argument("PATH", help: "A file's path inside the packs, as the packaging manifest gave it.")
    static let output = Option("--out", valueName: "FILE", help: "Where to copy the file's bytes.").required()
    static let latest = Flag("--latest", help: "Call it with requireLatestVersion: true.")
    static let callers = Option<Int>.number(
        "--callers", valueName: "N", in: 1...64, expected: "a number of callers from 1 to 64",
        help: "How many concurrent callers, each watching the pack's status updates.", default: 1)
    static let pack = Option("--pack", valueName: "ID", help: "Search only this pack (searchingInAssetPackWithID:).")
    static let count = Option<Int>.number(
        "--count", valueName: "N", in: 1...1_000_000, expected: "a number of calls from 1 to 1000000",
        help: "How many calls to time.", default: 1000)

    static let ensureCommand = CommandSignature(
        name: "ensure", abstract: "ensureLocalAvailability(of:), watched by each caller's statusUpdates(forAssetPackWithID:).",
        arguments: [packID, latest, callers])
    static let readCommand = CommandSignature(
        name: "read", abstract: "contents(at:searchingInAssetPackWithID:options:), written to FILE.",
        arguments: [path, pack, output])
    static let urlCommand = CommandSignature(name: "url", abstract: "url(for:), its file copied to FILE.", arguments: [path, output])
    static let timeEnsureCommand = CommandSignature(
        name: "time-ensure", abstract: "Times ensureLocalAvailability(of:) of a pack already on the device, N times.",
        arguments: [packID, count])
    static let removeCommand = CommandSignature(name: "remove", abstract: "remove(assetPackWithID:).", arguments: [packID])
    static let checkCommand = CommandSignature(name: "check", abstract: "checkForUpdates().")
    static let manifestCommand = CommandSignature(name: "manifest", abstract: "allAssetPacks, one line each.")

    static let signature = CommandSignature(
        name: "asset-pack-test-app",
        abstract: "Calls AssetPackManager as a test tells it and prints what it saw, one line each.",
        discussion: """
            Every status update a caller sees is printed as CALLER KIND ID vVERSION [DETAIL]; errors as
            error: MESSAGE on standard output too, so a test reads one stream in order. Exit status 0 on
            success, 1 when the framework threw, 64 for a mistake in the arguments.
            """,
        subcommands: [ensureCommand, readCommand, urlCommand, timeEnsureCommand, removeCommand, checkCommand, manifestCommand])

    var kind: Kind

    init(parsing arguments: CommandLineArguments<UsageError>) throws(UsageError) {
        if arguments.selected(Self.ensureCommand) {
            kind = .ensure(packID: try arguments.positional(Self.packID), latest: arguments.flag(Self.latest),
                           callers: try arguments.value(Self.callers))
        } else if arguments.selected(Self.readCommand) {
            kind = .read(path: try arguments.positional(Self.path), packID: try arguments.option(Self.pack),
                         output: try arguments.value(Self.output))
        } else if arguments.selected(Self.urlCommand) {
            kind = .url(path: try arguments.positional(Self.path), output: try arguments.value(Self.output))
        } else if arguments.selected(Self.timeEnsureCommand) {
            kind = .timeEnsure(packID: try arguments.positional(Self.packID), count: try arguments.value(Self.count))
        } else if arguments.selected(Self.removeCommand) {
            kind = .remove(packID: try arguments.positional(Self.packID))
        } else if arguments.selected(Self.checkCommand) {
            kind = .check
        } else {
            kind = .manifest
        }
    }
}
