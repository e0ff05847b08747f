/*
Abstract:
Unit tests of the debug tool's trace command: its options, how one event reads, and following a growing trace.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Read the trace")
struct TraceCommandTests {
    @Test("Filters and the diagram switch are read; a bad --last is a usage error")
    func parsesOptions() throws {
        let command = try TraceCommand.parsing(["--mermaid", "-b", "com.example.app", "--last", "5"])
        #expect(command.mermaid)
        #expect(command.app == "com.example.app")
        #expect(command.last == 5)
        for bad in ["0", "x", "-3"] {
            #expect { try TraceCommand.parsing(["--last", bad]) } throws: { ($0 as? DebugToolError)?.exitCode == .usage }
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

    @Test("--follow is read, and refused with --mermaid as a usage error naming both")
    func parsesFollow() throws {
        let command = try TraceCommand.parsing(["--follow", "-b", "com.example.app"])
        #expect(command.follow && !command.mermaid)
        #expect { try TraceCommand.parsing(["--mermaid", "--follow"]) } throws: { error in
            let error = error as? DebugToolError
            return error?.exitCode == .usage && error?.message.contains("--follow") == true
                && error?.message.contains("--mermaid") == true
        }
    }

    @Test("--json prints each event that passes the filters as the object the trace stores, one per line")
    func printsJSON() async throws {
        let folder = try TemporaryDirectory(prefix: "trace-json")
        let paths = DevicePaths(root: folder.url)
        try FileManager.default.createDirectory(
            at: paths.traceFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let kept = [Self.line("first"), Self.line("second")]
        let left = Self.line("other", app: "com.example.other") + Self.line(TraceEntry.progressEvent)
        let stored = kept[0] + left + kept[1]
        try Data(stored.utf8).write(to: paths.traceFile)

        let transcript = ConsoleTranscript()
        let code = await DebugTool.run(
            arguments: ["trace", "--json", "-b", "com.example.app"], context: .recording(paths, into: transcript))
        #expect(code == .success, "\(transcript.error)")
        let lines = transcript.output.split(separator: "\n").map(String.init)
        #expect(lines == kept.map { String($0.dropLast()) }, "the stored lines, the others left out")
        let objects = try lines.map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["event"] as? String } == ["first", "second"])
        #expect(objects.allSatisfy { $0["app"] as? String == "com.example.app" && $0["time"] is String })
    }

    @Test("--json goes with the lines and --follow, and is refused with a diagram or a picture")
    func jsonWithOutputs() throws {
        #expect(try TraceCommand.parsing(["--json", "--follow"]).json)
        for drawing in [["--mermaid"], ["--svg", "-"], ["--html", "t.html"]] {
            #expect { try TraceCommand.parsing(["--json"] + drawing) } throws: { error in
                let error = error as? DebugToolError
                return error?.exitCode == .usage
                    && error?.message == "--json and \(drawing[0]) do not go together; choose one."
            }
        }
    }

    /// One trace line as the service appends it.
    static func line(_ event: String, app: String = "com.example.app") -> String {
        #"{"app":"\#(app)","event":"\#(event)","from":"backgroundassetsd","time":"2026-11-23T12:08:03.130Z","to":"app"}"#
            + "\n"
    }

    static func append(_ text: String, to file: URL) throws {
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    @Test("The reader returns each whole line once, keeps a half-written one, and starts over on a new file")
    func readsGrowingFile() throws {
        let folder = try TemporaryDirectory(prefix: "trace")
        let file = folder.appending("trace.jsonl")
        var reader = TraceReader(file: file)
        #expect(!reader.fileExists)
        #expect(reader.newEntries().isEmpty)

        let third = Self.line("third")
        try Data((Self.line("first") + Self.line("second") + third.prefix(20)).utf8).write(to: file)
        #expect(reader.newEntries().map(\.event) == ["first", "second"])
        #expect(reader.newEntries().isEmpty, "nothing new, and half a line is not an entry")
        try Self.append(String(third.dropFirst(20)) + Self.line("fourth"), to: file)
        #expect(reader.newEntries().map(\.event) == ["third", "fourth"])

        // A reset replaces the file; the new one is read from its start.
        try FileManager.default.removeItem(at: file)
        try Data(Self.line("again").utf8).write(to: file)
        #expect(reader.newEntries().map(\.event) == ["again"])
    }

    @Test("Following prints the last events so far, then each new one that passes the filters, until cancelled")
    func followsTrace() async throws {
        let folder = try TemporaryDirectory(prefix: "trace")
        let file = folder.appending("trace.jsonl")
        try Data((Self.line("old") + Self.line("recent") + Self.line("other", app: "com.example.other")).utf8)
            .write(to: file)
        let command = try TraceCommand.parsing(["--follow", "-b", "com.example.app", "--last", "1"])
        let printed = Mutex<[String]>([])
        let console = Console(inputIsTerminal: false, outputIsTerminal: false, errorIsTerminal: false)
        let following = Task {
            await command.followTrace(TraceReader(file: file), console: console, interval: .milliseconds(10)) { line in
                printed.withLock { $0.append(line) }
            }
        }
        defer { following.cancel() }
        try await poll(until: { printed.withLock { $0.count } == 1 }, "the last event so far")
        #expect(printed.withLock { $0[0] }.hasSuffix(" recent"))

        try Self.append(Self.line("skipped", app: "com.example.other") + Self.line("new"), to: file)
        try await poll(until: { printed.withLock { $0.count } == 2 }, "the appended event")
        #expect(printed.withLock { $0[1] }.hasSuffix(" new"))

        following.cancel()
        #expect(await following.value == .interrupted)
        #expect(printed.withLock { $0.count } == 2, "the other app's event was filtered out")
    }
}
