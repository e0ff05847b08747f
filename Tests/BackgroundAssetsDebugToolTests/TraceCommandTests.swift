/*
Abstract:
Unit tests of the debug tool's trace command: its options and how one event reads.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Read the trace")
struct TraceCommandTests {
    @Test("Filters and the diagram switch are read; a bad --last is a usage error")
    func parsesOptions() throws {
        var arguments = CommandLineArguments(["--mermaid", "--app", "com.example.app", "--last", "5"], subcommand: "trace")
        let command = try TraceCommand(parsing: &arguments)
        #expect(command.mermaid)
        #expect(command.app == "com.example.app")
        #expect(command.last == 5)
        for bad in ["0", "x", "-3"] {
            var arguments = CommandLineArguments(["--last", bad], subcommand: "trace")
            #expect { try TraceCommand(parsing: &arguments) } throws: { ($0 as? DebugToolError)?.exitCode == .usage }
        }
    }

    @Test("One event reads as time, sender, receiver, event, download and detail")
    func formatsEvent() {
        let entry = TraceEntry(
            time: Date(timeIntervalSince1970: 1_795_521_600.25), from: "backgroundassetsd", to: "app",
            event: "downloadDidPause", app: "com.example.app", download: "wwdc23-10108", detail: "retrying after 503")
        let line = TraceCommand.line(for: entry)
        #expect(line.hasSuffix(" backgroundassetsd -> app downloadDidPause wwdc23-10108 (retrying after 503)"))
        #expect(line.contains(".250"), "milliseconds are shown: \(line)")
    }
}
