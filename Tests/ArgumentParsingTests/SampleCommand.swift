/*
Abstract:
A command declared the way the package's executables declare theirs, with every kind of argument, for the parser's tests.
*/

import ArgumentParsing

/// `sample`: a server-like root that runs by itself, with subcommands, a group and a companion.
enum SampleCommand {
    static let port = Option<Int>.number(
        "--port", valueName: "PORT", in: 0...65_535, expected: "a port from 0 to 65535", help: "TCP port.", default: 8080)
    static let fail = Option<String>(
        "--fail", valueName: "PATH=STATUS", help: "Answer STATUS for PATH.", repeatable: true)
    static let verbose = Flag("--verbose", "-v", help: "Say more.")
    static let lowPower = Option<Bool>.onOff("--low-power", help: "Low-power mode.")
    static let app = Option<String>("--app", valueName: "ID", help: "This app's own switch.").requiring(lowPower)
    static let mermaid = Flag("--mermaid", help: "Print a diagram.")
    static let svg = Option<String>("--svg", valueName: "FILE", help: "Draw a picture into FILE.")
    static let output = Option<String>("-o", "--output-path", valueName: "PATH", help: "Where to write.")
        .retiring("--out")
    static let url = Argument("URL", help: "What to download.")
    static let archives = Argument("ARCHIVE", help: "The archives to read.", repeatable: true)

    static let fetch = CommandSignature(
        name: "fetch", abstract: "Fetch a URL.", arguments: [url, output.required().inUsage(as: "FILE")])
    static let create = CommandSignature(
        name: "create", abstract: "Create a manifest from archives.", arguments: [archives, output])
    static let manifest = CommandSignature(name: "manifest", abstract: "Manifests.", subcommands: [create])

    static let signature = CommandSignature(
        name: "sample", abstract: "Serves and fetches.", discussion: "Exit codes: 0 success, 64 bad options.",
        arguments: [port, fail, verbose, lowPower, app, OneOf([mermaid, svg])],
        subcommands: [fetch, manifest])

    static func parse(
        _ line: [String], _ signature: CommandSignature = signature
    ) throws(UsageError) -> CommandLineArguments<UsageError> {
        try CommandLineArguments(line, signature: signature)
    }

    /// The message of the usage error a command line gets, or `nil` when it parses.
    static func mistake(_ line: [String], _ signature: CommandSignature = signature) -> String? {
        do {
            _ = try parse(line, signature)
            return nil
        } catch {
            return error.message
        }
    }
}
