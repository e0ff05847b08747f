/*
Abstract:
Tests that a trace line written by hand, without a tree, is the bytes the Codable path writes.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Trace lines written without a tree")
struct TraceEntryLineTests {
    /// An entry with every field set, optionals included.
    static func fullEntry(text: String) -> TraceEntry {
        TraceEntry(
            time: Date(timeIntervalSince1970: 1_764_151_391.573_9), from: text, to: text, event: text, app: text,
            download: text, detail: text, deviceTime: Date(timeIntervalSince1970: 1_764_237_791.001),
            transfer: TraceTransfer(written: 19_464, expected: 20_480, foreground: true, essential: true, priority: -1000),
            signpost: TraceSignpost(name: text, id: UInt64.max, subsystem: text, category: text, process: Int32.min))
    }

    /// An entry with every optional absent, and a transfer whose size is not known.
    static let bareEntries = [
        TraceEntry(time: Date(timeIntervalSince1970: 0), from: "app", to: "backgroundassetsd", event: "connected"),
        TraceEntry(
            time: Date(timeIntervalSince1970: 951_782_400.001), from: "backgroundassetsd", to: "nobody", event: "downloadProgress",
            transfer: TraceTransfer(written: 0, expected: nil, foreground: false, essential: false, priority: 0)),
    ]

    @Test("The full sample sets every field, so a field added later and not written by hand fails here")
    func sampleSetsEveryField() {
        let entry = Self.fullEntry(text: "x")
        for value in [Mirror(reflecting: entry), Mirror(reflecting: entry.transfer as Any), Mirror(reflecting: entry.signpost as Any)] {
            for child in value.children {
                let isAbsent = Mirror(reflecting: child.value).displayStyle == .optional
                    && Mirror(reflecting: child.value).children.isEmpty
                #expect(!isAbsent, "\(child.label ?? "?") is nil in the sample; set it so the hand-written line is checked for it")
            }
        }
    }

    @Test("A line is the Codable path's bytes and a newline, for hostile text in every field", arguments: SampleMessages.hostileStrings)
    func lineMatchesCodable(hostile: RawText) {
        for entry in [Self.fullEntry(text: hostile.text)] + Self.bareEntries {
            #expect(entry.line == entry.codableLine + [UInt8(ascii: "\n")])
        }
    }

    @Test("A full line reads back as the entry, to the millisecond")
    func fullLineReadsBack() throws {
        let entry = Self.fullEntry(text: "quote \" backslash \\ line\nbreak é")
        let read = try #require(TraceEntry.entries(in: Data(entry.line)).first)
        #expect(read.detail == entry.detail && read.signpost == entry.signpost && read.transfer == entry.transfer)
        #expect(abs(read.time.timeIntervalSince(entry.time)) < 0.001)
        #expect(abs(try #require(read.deviceTime).timeIntervalSince(try #require(entry.deviceTime))) < 0.001)
    }
}
