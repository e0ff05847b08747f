/*
Abstract:
A command declared the way the package's executables declare theirs, with every kind of argument, for the parser's tests.
*/

import ArgumentParsing

/// `sample`: a server-like root that runs by itself, with subcommands, a group and a companion.
struct SampleCommand: ParsableArguments, Equatable {
    static let configuration = CommandConfiguration(
        name: "sample", abstract: "Serves and fetches.", discussion: "Exit codes: 0 success, 64 bad options.",
        subcommands: [Fetch.self, Manifest.self])

    @Option("--port", valueName: "PORT", help: "TCP port.", as: .number(in: 0...65_535, expected: "a port from 0 to 65535"))
    var port = 8080
    @Option("--fail", valueName: "PATH=STATUS", help: "Answer STATUS for PATH.")
    var fail: [String]
    @Flag("--verbose", "-v", help: "Say more.")
    var verbose: Bool
    @Option("--low-power", help: "Low-power mode.", as: .onOff)
    var lowPower: Bool?
    @Option("--app", valueName: "ID", help: "This app's own switch.", traits: [.requiring("--low-power")])
    var app: String?
    @Flag("--mermaid", help: "Print a diagram.", traits: [.oneOf("output")])
    var mermaid: Bool
    @Option("--svg", valueName: "FILE", help: "Draw a picture into FILE.", traits: [.oneOf("output")])
    var svg: String?

    /// `sample fetch URL -o FILE`.
    struct Fetch: ParsableArguments, Equatable {
        static let configuration = CommandConfiguration(name: "fetch", abstract: "Fetch a URL.")

        @Argument("URL", help: "What to download.")
        var url: String
        @Option(
            "-o", "--output-path", valueName: "PATH", help: "Where to write.",
            traits: [.retiring("--out"), .usageValueName("FILE")])
        var output: String
    }

    /// `sample manifest create ARCHIVE... [-o PATH]`.
    struct Create: ParsableArguments, Equatable {
        static let configuration = CommandConfiguration(name: "create", abstract: "Create a manifest from archives.")

        @Argument("ARCHIVE", help: "The archives to read.")
        var archives: [String]
        @Option("-o", "--output-path", valueName: "PATH", help: "Where to write.", traits: [.retiring("--out")])
        var output: String?
    }

    /// `sample manifest`, which only groups `create`.
    struct Manifest: ParsableArguments {
        static let configuration = CommandConfiguration(name: "manifest", abstract: "Manifests.", subcommands: [Create.self])
    }

    /// The values of `fetch`, when the words selected it.
    var fetch: Fetch?
    /// The values of `manifest create`, when the words selected it.
    var create: Create?

    mutating func readSubcommand<Failure>(from arguments: CommandLineArguments<Failure>) throws(Failure) {
        fetch = try arguments.values(of: Fetch.self)
        create = try arguments.values(of: Create.self)
    }

    /// The message of the usage error a command line gets, or `nil` when it parses.
    static func mistake<Command: ParsableArguments>(_ line: [String], _ command: Command.Type = SampleCommand.self) -> String? {
        do {
            let parsed = try CommandLineArguments(line, signature: command.signature)
            if !parsed.isHelpRequested { _ = try Command(from: parsed) }
            return nil
        } catch {
            return error.message
        }
    }
}
