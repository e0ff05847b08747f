/*
Abstract:
Tests for reading the trace back and drawing it as a sequence diagram.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("The trace")
struct TraceEntryTests {
    static let lines = """
        {"app":"com.example.app","detail":"pid 42","event":"connected","from":"app","time":"2026-11-23T12:08:03.120Z","to":"backgroundassetsd"}
        {"app":"com.example.app","download":"wwdc23-10108","event":"scheduleDownload","from":"app","time":"2026-11-23T12:08:03.121Z","to":"backgroundassetsd"}
        {"app":"com.example.app","download":"wwdc23-10108","event":"downloadDidBegin","from":"backgroundassetsd","time":"2026-11-23T12:08:03.130Z","to":"app+extension"}
        {"app":"com.example.app","download":"wwdc23-10108","event":"finishedWithFileURL","from":"backgroundassetsd","time":"2026-11-23T12:08:04Z","to":"nobody"}
        {"event":"cut short
        """

    @Test("Trace lines are read back in order, skipping a line cut short by a crash")
    func readsEntries() {
        let entries = TraceEntry.entries(in: Data(Self.lines.utf8))
        #expect(entries.map(\.event) == ["connected", "scheduleDownload", "downloadDidBegin", "finishedWithFileURL"])
        #expect(entries[1].download == "wwdc23-10108")
        #expect(entries[0].time < entries[1].time, "milliseconds keep close events in order")
    }

    @Test("An entry's line is the time to the millisecond in UTC and sorted keys, and reads back as the entry")
    func writesLines() throws {
        let times = [
            (1_764_151_391.573_9, "2025-11-26T10:03:11.573Z"), (1_764_151_391, "2025-11-26T10:03:11.000Z"),
            (951_782_400.001, "2000-02-29T00:00:00.001Z"), (4_102_444_799.999_9, "2099-12-31T23:59:59.999Z"),
        ]
        for (seconds, time) in times {
            let entry = TraceEntry(
                time: Date(timeIntervalSince1970: seconds), from: "backgroundassetsd", to: "app", event: "didBegin",
                download: "wwdc23-\"10108\"", detail: "a\nb")
            let line = String(decoding: entry.line, as: UTF8.self)
            #expect(line == #"{"detail":"a\nb","download":"wwdc23-\"10108\"","event":"didBegin","from":"backgroundassetsd","time":"\#(time)","to":"app"}"# + "\n")
            let milliseconds = (seconds * 1000).rounded(.down) / 1000
            var expected = entry
            expected.time = Date(timeIntervalSince1970: milliseconds)
            let read = try #require(TraceEntry.entries(in: Data(line.utf8)).first)
            #expect(abs(read.time.timeIntervalSince(expected.time)) < 0.000_5)
            #expect(read.event == entry.event && read.download == entry.download && read.detail == entry.detail)
        }
    }

    @Test("Timestamps are UTC to the millisecond, cut rather than rounded")
    func timestamps() {
        let expected: [(Int64, String)] = [
            (0, "1970-01-01T00:00:00.000"), (999, "1970-01-01T00:00:00.999"), (86_399_999, "1970-01-01T23:59:59.999"),
            (951_782_400_001, "2000-02-29T00:00:00.001"), (1_764_151_391_573, "2025-11-26T10:03:11.573"),
            (4_102_444_799_999, "2099-12-31T23:59:59.999"), (-1, "1969-12-31T23:59:59.999"),
        ]
        for (milliseconds, text) in expected {
            #expect(ISO8601Timestamp.string(for: Date(timeIntervalSince1970: Double(milliseconds) / 1000)) == text)
        }
        #expect(ISO8601Timestamp.string(for: Date(timeIntervalSince1970: 1.999_9)) == "1970-01-01T00:00:01.999")
    }

    @Test("A date no clock reaches, as a damaged record could hold, is clamped rather than trapping")
    func unreachableDatesAreClamped() {
        for seconds in [Double.infinity, -.infinity, .nan] {
            #expect(ISO8601Timestamp.string(for: Date(timeIntervalSince1970: seconds)) == "1970-01-01T00:00:00.000")
        }
        #expect(ISO8601Timestamp.string(for: Date(timeIntervalSince1970: 1e300)) == ISO8601Timestamp.string(for: Date(timeIntervalSince1970: 1e12)))
        #expect(ISO8601Timestamp.string(for: Date(timeIntervalSince1970: -1e300)) == ISO8601Timestamp.string(for: Date(timeIntervalSince1970: -1e12)))
        #expect(ISO8601Timestamp.string(for: Date(timeIntervalSince1970: 1e12)).hasSuffix("T01:46:40.000"))
        #expect(ISO8601Timestamp.day(for: Date(timeIntervalSince1970: .nan)) == "1970-01-01")
    }

    @Test("The diagram has one arrow per receiver and a note for events nobody received")
    func drawsSequenceDiagram() {
        let diagram = TraceEntry.mermaidDiagram(of: TraceEntry.entries(in: Data(Self.lines.utf8)))
        let lines = diagram.split(separator: "\n").map(String.init)
        #expect(lines.first == "sequenceDiagram")
        #expect(lines.contains("    participant P0 as app"))
        #expect(lines.contains("    participant P1 as backgroundassetsd"))
        #expect(lines.contains("    participant P2 as extension"))
        #expect(lines.contains("    P0->>P1: scheduleDownload wwdc23-10108"))
        #expect(lines.contains("    P1->>P0: downloadDidBegin wwdc23-10108"))
        #expect(lines.contains("    P1->>P2: downloadDidBegin wwdc23-10108"))
        #expect(lines.contains("    Note over P1: finishedWithFileURL wwdc23-10108, no process to receive it"))
    }

    @Test("Text that Mermaid would interpret is neutralised")
    func neutralisesMermaidSyntax() {
        let entry = TraceEntry(from: "app", to: "backgroundassetsd", event: "schedule;Download", download: "a#b%c")
        let diagram = TraceEntry.mermaidDiagram(of: [entry])
        #expect(diagram.contains("P0->>P1: schedule Download a b c"))
    }
}
