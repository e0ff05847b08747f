/*
Abstract:
Unit tests of parsing against a signature: spellings, values, positional arguments, subcommands, groups and companions.
*/

import ArgumentParsing
import Testing

@Suite("Parse a command line against its signature")
struct ParsingTests {
    @Test("Options take their value in either form, flags any spelling, and a declared default fills in")
    func optionsAndFlags() throws {
        let arguments = try SampleCommand.parse(
            ["--port=9000", "-v", "--fail", "/a=503", "--fail", "/b=404", "--low-power", "ON"])
        #expect(try arguments.option(SampleCommand.port) == 9000)
        #expect(arguments.flag(SampleCommand.verbose))
        #expect(!arguments.flag(SampleCommand.mermaid))
        #expect(try arguments.options(SampleCommand.fail) == ["/a=503", "/b=404"])
        #expect(try arguments.option(SampleCommand.lowPower) == true)
        #expect(try arguments.option(SampleCommand.app) == nil)
        #expect(try SampleCommand.parse([]).value(SampleCommand.port) == 8080)
    }

    @Test("A value that does not convert is refused when read, naming the option and the value")
    func conversion() throws {
        let arguments = try SampleCommand.parse(["--port", "70000", "--low-power", "maybe"])
        #expect(throws: UsageError("--port takes a port from 0 to 65535, not \"70000\".")) {
            try arguments.option(SampleCommand.port)
        }
        #expect(throws: UsageError("--low-power takes on or off, not \"maybe\".")) {
            try arguments.option(SampleCommand.lowPower)
        }
    }

    @Test("Mistakes are refused with a sentence naming the argument", arguments: [
        (["--bogus"], "Unknown argument \"--bogus\"."),
        (["-x"], "Unknown argument \"-x\"."),
        (["--port"], "The option --port needs a value."),
        (["--port", "--verbose"], "The option --port needs a value."),
        (["--verbose=yes"], "--verbose takes no value; give it alone."),
        (["--port", "1", "--port", "2"], "--port is given twice; give it once."),
        (["fetch", "http://a", "-o", "x", "--output-path", "y"], "-o and --output-path are the same option; give it once."),
        (["--mermaid", "--svg", "a.svg"], "--mermaid and --svg do not go together; choose one."),
        (["--app", "com.example.a"], "--app only goes with --low-power; add --low-power on|off."),
        (["fetch", "http://a", "--out", "x"], "--out is now -o/--output-path."),
        (["fetch", "http://a", "--out=x"], "--out is now -o/--output-path."),
        (["fetch", "http://a"], "fetch needs -o FILE: where to write."),
        (["fetch", "-o", "x"], "fetch needs URL: what to download."),
        (["fetch", "http://a", "http://b", "-o", "x"], "Unknown argument \"http://b\"."),
        (["fetch", "http://a", "-o", "x", "--port", "1"], "--port is not an option of sample fetch; it belongs to sample."),
        (["--output-path", "x"], "--output-path is not an option of sample; it belongs to sample fetch and sample manifest create."),
        (["manifest"], "manifest needs a command: create."),
        (["manifest", "remove"], "\"remove\" is not a command of sample manifest; the commands are create."),
        (["stop"], "\"stop\" is not a command of sample; the commands are fetch, manifest."),
        (["manifest", "create"], "manifest create needs ARCHIVE...: the archives to read."),
    ])
    func mistakes(_ line: [String], _ message: String) {
        #expect(SampleCommand.mistake(line) == message)
    }

    @Test("Seconds are read to the millisecond; zero, negative, infinite and too large are refused by name")
    func seconds() throws {
        let timeout = Option.seconds("--timeout", help: "Give up after SECONDS.", default: .seconds(600))
        #expect(timeout.definition.defaultDescription == "600")
        #expect(try timeout.value(from: "1.5") == .milliseconds(1500))
        #expect(try timeout.value(from: "0.0001") == .milliseconds(1))
        for text in ["0", "-3", "inf", "nan", "soon"] {
            #expect(throws: UsageError("--timeout \(text) is not a positive number of seconds.")) { try timeout.value(from: text) }
        }
        #expect(throws: UsageError("--timeout 1e300 is more seconds than can be waited; give a smaller number.")) {
            try timeout.value(from: "1e300")
        }
    }

    @Test("A positional argument is any word not starting with -, or - alone, or any word after --")
    func positionals() throws {
        let fetch = try SampleCommand.parse(["fetch", "-o", "-", "--", "--not-an-option"])
        #expect(fetch.selected(SampleCommand.fetch))
        #expect(fetch.commandWords == ["fetch"])
        #expect(try fetch.positional(SampleCommand.url) == "--not-an-option")
        #expect(try fetch.option(SampleCommand.output) == "-")

        let create = try SampleCommand.parse(["manifest", "-o", "m.json", "create", "a.aar", "b.aar"])
        #expect(create.selected(SampleCommand.create))
        #expect(create.positionals(SampleCommand.archives) == ["a.aar", "b.aar"])
        #expect(create.positionals(SampleCommand.url).isEmpty)
    }

    @Test("An optional positional argument may be left out, and is shown in brackets")
    func optionalPositional() throws {
        let first = Argument("FIRST", help: "The first.")
        let second = Argument("SECOND", help: "The second.").optional()
        let signature = CommandSignature(name: "pair", abstract: "Pairs.", arguments: [first, second])
        let both = try SampleCommand.parse(["a", "b"], signature)
        #expect(both.positionals(second) == ["b"])
        let one = try SampleCommand.parse(["a"], signature)
        #expect(try one.positional(first) == "a")
        #expect(one.positionals(second).isEmpty)
        #expect(SampleCommand.mistake([], signature) == "pair needs FIRST: the first.")
        #expect(SampleCommand.mistake(["a", "b", "c"], signature) == "Unknown argument \"c\".")
        #expect(signature.usageLines(commandName: "pair") == ["pair FIRST [SECOND]"], "\(signature.usageLines(commandName: "pair"))")
    }

    @Test("A default subcommand runs when the first word names none")
    func defaultSubcommand() throws {
        let signature = CommandSignature(
            name: "pack", abstract: "Packs.", subcommands: [SampleCommand.fetch, SampleCommand.manifest],
            defaultSubcommand: "fetch")
        let arguments = try SampleCommand.parse(["http://a", "-o", "x"], signature)
        #expect(arguments.selected(SampleCommand.fetch))
        #expect(try arguments.positional(SampleCommand.url) == "http://a")
        #expect(SampleCommand.mistake([], signature) == "fetch needs URL: what to download.")
    }

    @Test("--help anywhere before -- is answered before anything is checked")
    func help() throws {
        #expect(try SampleCommand.parse(["--bogus", "-h"]).isHelpRequested)
        #expect(try SampleCommand.parse(["fetch", "--help"]).isHelpRequested)
        #expect(SampleCommand.mistake(["fetch", "-o", "x", "--", "--help"]) == nil)
    }

    @Test("One of a required group must be given")
    func requiredGroup() {
        let signature = CommandSignature(
            name: "simulate", abstract: "Simulates.",
            arguments: [OneOf([SampleCommand.mermaid, SampleCommand.svg], required: true)])
        #expect(SampleCommand.mistake([], signature) == "simulate needs one of --mermaid, --svg FILE.")
        #expect(SampleCommand.mistake(["--svg", "a"], signature) == nil)
    }
}
