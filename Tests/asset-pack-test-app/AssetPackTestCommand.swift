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

    static let configuration = CommandConfiguration(
        name: "asset-pack-test-app",
        abstract: "Calls AssetPackManager as a test tells it and prints what it saw, one line each.",
        discussion: """
            Every status update a caller sees is printed as CALLER KIND ID vVERSION [DETAIL]; errors as
            error: MESSAGE on standard output too, so a test reads one stream in order. Exit status 0 on
            success, 1 when the framework threw, 64 for a mistake in the arguments.
            """,
        subcommands: [Ensure.self, Read.self, LocalURL.self, TimeEnsure.self, Remove.self, Check.self, Manifest.self])

    struct Ensure: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "ensure", abstract: "ensureLocalAvailability(of:), watched by each caller's statusUpdates(forAssetPackWithID:).")
        @Argument("ID", help: "The asset pack's identifier.")
        var packID: String
        @Flag("--latest", help: "Call it with requireLatestVersion: true.")
        var latest: Bool
        @Option(
            "--callers", valueName: "N", help: "How many concurrent callers, each watching the pack's status updates.",
            as: .number(in: 1...64, expected: "a number of callers from 1 to 64"))
        var callers = 1
    }

    struct Read: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "read", abstract: "contents(at:searchingInAssetPackWithID:options:), written to FILE.")
        @Argument("PATH", help: "A file's path inside the packs, as the packaging manifest gave it.")
        var path: String
        @Option("--pack", valueName: "ID", help: "Search only this pack (searchingInAssetPackWithID:).")
        var packID: String?
        @Option("--out", valueName: "FILE", help: "Where to copy the file's bytes.")
        var output: String
    }

    struct LocalURL: ParsableArguments {
        static let configuration = CommandConfiguration(name: "url", abstract: "url(for:), its file copied to FILE.")
        @Argument("PATH", help: "A file's path inside the packs, as the packaging manifest gave it.")
        var path: String
        @Option("--out", valueName: "FILE", help: "Where to copy the file's bytes.")
        var output: String
    }

    struct TimeEnsure: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "time-ensure", abstract: "Times ensureLocalAvailability(of:) of a pack already on the device, N times.")
        @Argument("ID", help: "The asset pack's identifier.")
        var packID: String
        @Option(
            "--count", valueName: "N", help: "How many calls to time.",
            as: .number(in: 1...1_000_000, expected: "a number of calls from 1 to 1000000"))
        var count = 1000
    }

    struct Remove: ParsableArguments {
        static let configuration = CommandConfiguration(name: "remove", abstract: "remove(assetPackWithID:).")
        @Argument("ID", help: "The asset pack's identifier.")
        var packID: String
    }

    struct Check: ParsableArguments {
        static let configuration = CommandConfiguration(name: "check", abstract: "checkForUpdates().")
    }

    struct Manifest: ParsableArguments {
        static let configuration = CommandConfiguration(name: "manifest", abstract: "allAssetPacks, one line each.")
    }

    var kind = Kind.manifest

    mutating func readSubcommand<Failure>(from arguments: CommandLineArguments<Failure>) throws(Failure) {
        if let ensure = try arguments.values(of: Ensure.self) {
            kind = .ensure(packID: ensure.packID, latest: ensure.latest, callers: ensure.callers)
        } else if let read = try arguments.values(of: Read.self) {
            kind = .read(path: read.path, packID: read.packID, output: read.output)
        } else if let url = try arguments.values(of: LocalURL.self) {
            kind = .url(path: url.path, output: url.output)
        } else if let timing = try arguments.values(of: TimeEnsure.self) {
            kind = .timeEnsure(packID: timing.packID, count: timing.count)
        } else if let remove = try arguments.values(of: Remove.self) {
            kind = .remove(packID: remove.packID)
        } else if try arguments.values(of: Check.self) != nil {
            kind = .check
        }
    }
}
