/*
Abstract:
Tests of the timeline's Signposts row: intervals paired from an app's signpost begins and ends, events as moments.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("The timeline's signposts")
struct TimelineSignpostTests {
    /// A signpost line as an app writes it, `seconds` after the script's start.
    func signpost(
        _ seconds: Double, _ event: String, _ name: String, id: UInt64, process: Int32 = 41, detail: String? = nil
    ) -> TraceEntry {
        TraceEntry(
            time: TraceScript.start.addingTimeInterval(seconds), from: "app", to: "app", event: event,
            app: TraceScript.app, detail: detail,
            signpost: TraceSignpost(
                name: name, id: id, subsystem: "com.example.app", category: "downloads", process: process))
    }

    @Test("Each begin is paired with the end of the same name, ID and process, overlapping intervals included")
    func intervalsPairByIDAndProcess() throws {
        let entries = [
            signpost(1, TraceSignpost.beginEvent, "Load manifest", id: 1, detail: "manifest.json"),
            signpost(1.5, TraceSignpost.beginEvent, "Load manifest", id: 2),
            // Another process with the same ID: its own interval, not the end of the first.
            signpost(2, TraceSignpost.beginEvent, "Load manifest", id: 1, process: 42),
            signpost(3, TraceSignpost.endEvent, "Load manifest", id: 1, detail: "after 2000.0 ms"),
            signpost(4, TraceSignpost.emitEvent, "Manifest parsed", id: 2, detail: "12 sessions"),
            signpost(5, TraceSignpost.endEvent, "Load manifest", id: 2),
        ]
        let row = try #require(Timeline(entries: entries).rows.first { $0.kind == .signposts })
        #expect(row.title == "Signposts")
        #expect(row.spans.count == 3)
        let first = row.spans[0]
        #expect(first.label == "Load manifest" && !first.isOpen)
        #expect(first.end.timeIntervalSince(first.start) == 2)
        #expect(first.detail.contains("manifest.json") && first.detail.contains("after 2000.0 ms"))
        #expect(row.spans[1].end.timeIntervalSince(row.spans[1].start) == 3.5)
        // The other process's interval never ended: it stays open to the trace's end.
        #expect(row.spans[2].isOpen && row.spans[2].end == TraceScript.start.addingTimeInterval(5))
        #expect(row.moments.map(\.label) == ["Manifest parsed: 12 sessions"])
    }

    @Test("An app's signposts, which carry no device time, leave the device's clock as the service recorded it")
    func signpostsLeaveTheDeviceClockAlone() {
        var script = TraceScript()
        // The device runs ten times faster than real time: ten device seconds per real second.
        script.at(0, "install", from: "tool", to: "backgroundassetsd", deviceTime: TraceScript.start)
        script.at(2, "periodicCheck", deviceTime: TraceScript.start.addingTimeInterval(20))
        let entries = script.entries + [signpost(1, TraceSignpost.emitEvent, "Tick", id: 1)]
        let timeline = Timeline(entries: entries)
        #expect(timeline.deviceTime(at: TraceScript.start.addingTimeInterval(1)) == TraceScript.start.addingTimeInterval(10))
    }

    @Test("A trace without signposts has no Signposts row")
    func noSignpostsNoRow() {
        var script = TraceScript()
        script.at(0, "install", from: "tool", to: "backgroundassetsd", detail: "version 1")
        #expect(!Timeline(entries: script.entries).rows.contains { $0.kind == .signposts })
    }
}
