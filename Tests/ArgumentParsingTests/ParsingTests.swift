/*
Abstract:
Unit tests of parsing into declared properties: spellings, values, positional arguments, subcommands, groups and companions.
*/

import ArgumentParsing
import Testing

@Suite("Parse a command line into the properties that declare it")
struct ParsingTests {
    @Test("Options take their value in either form, flags any spelling, and a declared default fills in")
    func optionsAndFlags() throws {
        let sample = try SampleCommand.parse(
            ["--port=9000", "-v", "--fail", "/a=503", "--fail", "/b=404", "--low-power", "ON"])
        #expect(sample.port == 9000)
        #expect(sample.verbose)
        #expect(!sample.mermaid)
        #expect(sample.fail == ["/a=503", "/b=404"])
        #expect(sample.lowPower == true)
        #expect(sample.app == nil)
        #expect(try SampleCommand.parse([]).port == 8080)
        #expect(try SampleCommand.parse([]).fail.isEmpty)
    }

    @Test("Outside a parse every property holds its default, and parsing nothing gives the same value")
    func defaults() throws {
        let declared = SampleCommand()
        #expect(declared.port == 8080 && !declared.verbose && declared.lowPower == nil && declared.fail.isEmpty)
        #expect(try SampleCommand.parse([]) == declared)
        #expect(try SampleCommand.parse(["--port", "1"]) != declared)
    }

    @Test("A value that does not convert is refused when parsed, naming the option and the value", arguments: [
        (["--port", "70000"], "--port takes a port from 0 to 65535, not \"70000\"."),
        (["--low-power", "maybe"], "--low-power takes on or off, not \"maybe\"."),
        // Two at fault: the first declared is named.
        (["--low-power", "maybe", "--port", "70000"], "--port takes a port from 0 to 65535, not \"70000\"."),
    ])
    func conversion(_ line: [String], _ message: String) {
        #expect(SampleCommand.mistake(line) == message)
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
        let timeout = Option<Duration>(wrappedValue: .seconds(600), "--timeout", help: "Give up after SECONDS.", as: .seconds)
        #expect(timeout.definition.defaultDescription == "600")
        #expect(timeout.definition.valueName == "SECONDS")
        let seconds = ArgumentConversion<Duration>.seconds
        #expect(try seconds.value(from: "1.5", name: "--timeout") == .milliseconds(1500))
        #expect(try seconds.value(from: "0.0001", name: "--timeout") == .milliseconds(1))
        for text in ["0", "-3", "inf", "nan", "soon"] {
            #expect(throws: UsageError("--timeout \(text) is not a positive number of seconds.")) {
                try seconds.value(from: text, name: "--timeout")
            }
        }
        #expect(throws: UsageError("--timeout 1e300 is more seconds than can be waited; give a smaller number.")) {
            try seconds.value(from: "1e300", name: "--timeout")
        }
    }

    @Test("A positional argument is any word not starting with -, or - alone, or any word after --")
    func positionals() throws {
        let fetched = try SampleCommand.parse(["fetch", "-o", "-", "--", "--not-an-option"])
        let fetch = try #require(fetched.fetch)
        #expect(fetch.url == "--not-an-option")
        #expect(fetch.output == "-")
        #expect(fetched.create == nil)

        let created = try SampleCommand.parse(["manifest", "-o", "m.json", "create", "a.aar", "b.aar"])
        let create = try #require(created.create)
        #expect(create.archives == ["a.aar", "b.aar"])
        #expect(create.output == "m.json")
        #expect(created.fetch == nil)
        #expect(try SampleCommand.parse(["-v"]).fetch == nil)
    }

    /// `pair FIRST [SECOND]`.
    struct Pair: ParsableArguments {
        static let configuration = CommandConfiguration(name: "pair", abstract: "Pairs.")
        @Argument("FIRST", help: "The first.")
        var first: String
        @Argument("SECOND", help: "The second.")
        var second: String?
    }

    @Test("An optional positional argument may be left out, and is shown in brackets")
    func optionalPositional() throws {
        #expect(try Pair.parse(["a", "b"]).second == "b")
        let one = try Pair.parse(["a"])
        #expect(one.first == "a")
        #expect(one.second == nil)
        #expect(SampleCommand.mistake([], Pair.self) == "pair needs FIRST: the first.")
        #expect(SampleCommand.mistake(["a", "b", "c"], Pair.self) == "Unknown argument \"c\".")
        #expect(Pair.signature.usageLines(commandName: "pair") == ["pair FIRST [SECOND]"])
    }

    /// `pack`, which runs `fetch` when its first word names no command.
    struct Pack: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "pack", abstract: "Packs.", subcommands: [SampleCommand.Fetch.self, SampleCommand.Manifest.self],
            defaultSubcommand: "fetch")
    }

    @Test("A default subcommand runs when the first word names none")
    func defaultSubcommand() throws {
        let arguments = try CommandLineArguments(["http://a", "-o", "x"], signature: Pack.signature)
        let fetch = try #require(try arguments.values(of: SampleCommand.Fetch.self))
        #expect(try arguments.values(of: SampleCommand.Create.self) == nil)
        #expect(fetch.url == "http://a")
        #expect(SampleCommand.mistake([], Pack.self) == "fetch needs URL: what to download.")
    }

    @Test("--help anywhere before -- is answered before anything is checked")
    func help() throws {
        #expect(try CommandLineArguments(["--bogus", "-h"], signature: SampleCommand.signature).isHelpRequested)
        #expect(try CommandLineArguments(["fetch", "--help"], signature: SampleCommand.signature).isHelpRequested)
        #expect(SampleCommand.mistake(["fetch", "-o", "x", "--", "--help"]) == nil)
    }

    /// `simulate`, which needs exactly one of its events, and checks a range of its own.
    struct Simulate: ParsableArguments {
        static let configuration = CommandConfiguration(name: "simulate", abstract: "Simulates.")
        @Flag("--mermaid", help: "Print a diagram.", traits: [.exactlyOneOf("event")])
        var mermaid: Bool
        @Option("--svg", valueName: "FILE", help: "Draw a picture into FILE.", traits: [.exactlyOneOf("event")])
        var svg: String?
        @Option("--count", valueName: "N", help: "How many.", as: .number(in: 0...100, expected: "a count"))
        var count = 1

        mutating func validate() throws(UsageError) {
            if mermaid, count > 1 { throw UsageError("--mermaid draws one diagram; leave out --count.") }
        }
    }

    @Test("One of a required group must be given, and the command's own checks run last")
    func requiredGroupAndValidate() {
        #expect(SampleCommand.mistake([], Simulate.self) == "simulate needs one of --mermaid, --svg FILE.")
        #expect(SampleCommand.mistake(["--svg", "a"], Simulate.self) == nil)
        #expect(SampleCommand.mistake(["--mermaid", "--count", "2"], Simulate.self)
            == "--mermaid draws one diagram; leave out --count.")
        #expect(Simulate.signature.synopsis == "--mermaid | --svg FILE [--count N]")
    }

    @Test("The signature lists the declarations in the order of the properties")
    func declarationOrder() {
        #expect(SampleCommand.signature.definitions.map(\.primaryName)
            == ["--port", "--fail", "--verbose", "--low-power", "--app", "--mermaid", "--svg"])
        #expect(SampleCommand.Fetch.signature.definitions.map(\.primaryName) == ["URL", "-o"])
    }
}
