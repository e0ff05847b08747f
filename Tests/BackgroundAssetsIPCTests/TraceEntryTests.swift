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
