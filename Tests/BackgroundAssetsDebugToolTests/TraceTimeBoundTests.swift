/*
Abstract:
Unit tests of the times trace's --since and --until accept, and of the picture and progress options.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Narrow the trace by time")
struct TraceTimeBoundTests {
    /// 2026-11-24T14:07:02Z.
    static let now = Date(timeIntervalSince1970: 1_795_529_222)

    /// Each form of time and its offset from ``now`` in seconds, declared with its type: inferred
    /// inside the test's arguments, the literal cost the type checker most of a second.
    static let timeForms: [(String, Double)] = [
        ("now", 0.0), ("90s", -90), ("5m", -300), ("2h", -7200), ("1d", -86_400), ("1.5m", -90),
        // 14:08 is a minute ahead of now, so it names yesterday's.
        ("14:07:00", -2), ("14:07:01.500", -0.5), ("14:08", -86_342),
        ("2026-11-24T14:00:02Z", -420), ("2026-11-24T14:00:02", -420), ("2026-11-24T14:00:02.250Z", -419.75),
    ]

    @Test("now, a time ago, a time of day and a date each name a moment", arguments: Self.timeForms)
    func formsOfTime(text: String, offset: Double) throws {
        let bound = try TraceTimeBound(text, option: "--since")
        #expect(bound.date(relativeTo: Self.now)?.timeIntervalSince(Self.now) == offset)
    }

    @Test("Anything else is a usage error that lists the forms", arguments: ["yesterday", "5x", "-5m", "25:00", "14:7", ""])
    func refusesOtherText(text: String) {
        #expect {
            try TraceTimeBound(text, option: "--since")
        } throws: { error in
            let error = error as? DebugToolError
            return error?.exitCode == .usage && error?.message.contains("90s") == true
                && error?.message.contains(text.debugDescription) == true
        }
    }

    @Test("The picture options are read, and only one way of drawing is taken at a time")
    func pictureOptions() throws {
        let command = try TraceCommand.parsing(["--svg", "run.svg", "--since", "5m"])
        #expect(command.output == .svg(path: "run.svg"))
        #expect(command.since?.text == "5m")
        for pair in [["--svg", "a.svg", "--html", "a.html"], ["--follow", "--svg", "a.svg"], ["--mermaid", "--html", "a"]] {
            #expect { try TraceCommand.parsing(pair) } throws: { ($0 as? DebugToolError)?.exitCode == .usage }
        }
    }

    @Test("Progress samples are left out of lines unless --progress asks, and then read as bytes")
    func progressSamples() throws {
        let sample = TraceEntry(from: "backgroundassetsd", to: "app", event: TraceEntry.progressEvent, app: "a",
                                download: "d", transfer: TraceTransfer(written: 5, expected: 10, foreground: true,
                                                                      essential: false, priority: 0))
        #expect(!(try TraceCommand.parsing([])).shows(sample))
        #expect(try TraceCommand.parsing(["--progress"]).shows(sample))
        #expect(TraceCommand.line(for: sample).hasSuffix("downloadProgress d (5 of 10 bytes)"))
    }

    @Test("--since and --until keep the entries between them")
    func filtersByTime() throws {
        let command = try TraceCommand.parsing(["--since", "10m", "--until", "1m"])
        func entry(_ secondsAgo: Double) -> TraceEntry {
            TraceEntry(time: Self.now.addingTimeInterval(-secondsAgo), from: "tool", to: "backgroundassetsd", event: "e")
        }
        let window = try command.window(now: Self.now, in: [])
        #expect(!command.matches(entry(700), in: window))
        #expect(command.matches(entry(300), in: window))
        #expect(!command.matches(entry(30), in: window))
        #expect(command.matches(entry(30), in: (nil, nil)), "an event appended while following is always new")
    }

    @Test("last-EVENT starts at the last time an event happened, and names a missing one")
    func sinceLastEvent() throws {
        let command = try TraceCommand.parsing(["--since", "last-install"])
        let entries = [600.0, 300, 30].map { secondsAgo in
            TraceEntry(time: Self.now.addingTimeInterval(-secondsAgo), from: "tool", to: "backgroundassetsd",
                       event: secondsAgo == 30 ? "uninstall" : "install")
        }
        let window = try command.window(now: Self.now, in: entries)
        #expect(window.since == entries[1].time)
        #expect(entries.filter { command.matches($0, in: window) }.count == 2)
        #expect { try command.window(now: Self.now, in: []) } throws: {
            ($0 as? DebugToolError)?.message.contains("last-install names an event the trace does not have") == true
        }
    }
}
