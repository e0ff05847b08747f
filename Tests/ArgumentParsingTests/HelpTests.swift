/*
Abstract:
Unit tests of the help rendered from a signature, and of its promise: what the help lists is what the parser accepts.
*/

import ArgumentParsing
import TestSupport
import Testing

@Suite("Render the help from the signature")
struct HelpTests {
    @Test("The usage line brackets what is optional, joins a group with |, and nests a companion")
    func synopsis() {
        #expect(SampleCommand.signature.synopsis
            == "[--port PORT] [--fail PATH=STATUS]... [--verbose] [--low-power on|off [--app ID]] [--mermaid | --svg FILE]")
        #expect(SampleCommand.Fetch.signature.synopsis == "URL -o FILE")
        #expect(SampleCommand.Manifest.signature.synopsis == "create ARCHIVE... [-o PATH]")
    }

    @Test("Usage lines cover every command that runs, a default subcommand's word in brackets")
    func usageLines() {
        #expect(ParsingTests.Pack.signature.usageLines(commandName: "pack") == [
            "pack [fetch] URL -o FILE", "pack manifest create ARCHIVE... [-o PATH]",
        ])
    }

    @Test("The whole help: usage, abstract, arguments, options with their notes, commands, discussion")
    func helpMessage() {
        #expect(SampleCommand.signature.helpMessage() == """
            Usage: sample [--port PORT] [--fail PATH=STATUS]... [--verbose] [--low-power on|off [--app ID]] [--mermaid | --svg FILE]
                   sample fetch URL -o FILE
                   sample manifest create ARCHIVE... [-o PATH]

            Serves and fetches.

            Arguments:
              URL          What to download.
              ARCHIVE...   The archives to read.

            Options:
              --port PORT              TCP port (default: 8080).
              --fail PATH=STATUS       Answer STATUS for PATH (repeatable).
              -v, --verbose            Say more.
              --low-power on|off       Low-power mode.
              --app ID                 This app's own switch (with --low-power).
              --mermaid                Print a diagram.
              --svg FILE               Draw a picture into FILE.
              -o, --output-path PATH   Where to write.
              -h, --help               Show this help.

            Commands:
              fetch             Fetch a URL.
              manifest create   Create a manifest from archives.

            Exit codes: 0 success, 64 bad options.
            """)
    }

    @Test("A row's text wraps at 100 columns under itself")
    func wrapping() {
        let text = String(repeating: "word ", count: 40).trimmingSuffix()
        let rendered = HelpTable.render([HelpRow(label: "--long-option VALUE", text: text)])
        let lines = rendered.split(separator: "\n")
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= HelpTable.width })
        let indent = String(repeating: " ", count: 24)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(indent) && !$0.hasPrefix(indent + " ") })
    }

    @Test("Every option the help lists is accepted, and every option accepted is in the help")
    func helpMatchesParsing() throws {
        let help = SampleCommand.signature.helpMessage()
        let listed = HelpOptions.spellings(inHelp: help)
        #expect(listed == [
            "--port", "--fail", "-v", "--verbose", "--low-power", "--app", "--mermaid", "--svg", "-o", "--output-path",
            "-h", "--help",
        ])
        for line in HelpOptions.probes(inHelp: help) {
            // An unknown word after the option is what is refused: the option itself, and its value, were read.
            #expect(SampleCommand.mistake(line) == HelpOptions.unlistedRefusal, "\(line)")
        }
        #expect(SampleCommand.mistake(["--help", HelpOptions.unlistedWord]) == nil)
        for definition in SampleCommand.signature.allOptions {
            for name in definition.names { #expect(listed.contains(name), "\(name) is accepted but not in the help") }
        }
    }
}

extension String {
    fileprivate func trimmingSuffix() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
