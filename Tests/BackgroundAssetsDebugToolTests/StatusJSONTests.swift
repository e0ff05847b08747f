/*
Abstract:
Tests that status --json, its downloads laid out by hand, prints what Foundation's JSONEncoder prints.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("status --json")
struct StatusJSONTests {
    static let texts = ["plain", "quote \" backslash \\ slash / line\nbreak\ttab é 👩🏽‍💻", "\u{1}\u{1F}", ""]

    /// A download with every field set, its text `text`.
    static func full(_ text: String, seconds: Double) -> DownloadStatus {
        DownloadStatus(
            bundleIdentifier: "com.example.sessions",
            download: DownloadDescriptor(
                identifier: text, uniqueIdentifier: "6B1F8E53", kind: .manifest, url: "https://cdn.example.com/\(text)",
                headers: [text: text, "b": "2", "B": "3", "a": "1"], fileSize: 1_234_567_890,
                applicationGroupIdentifier: "group.com.example.sessions", priority: -1000, isEssential: true, state: .failed),
            isForeground: true, bytesWritten: 1_048_576, bytesExpected: 4_194_304, attempts: 3,
            lastError: WireFailure(domain: "NSURLErrorDomain", code: -1004, message: text),
            nextAttemptAt: Date(timeIntervalSince1970: seconds), waitsUntilReachable: true)
    }

    static let bare = DownloadStatus(
        bundleIdentifier: "a", download: DownloadDescriptor(identifier: "b", uniqueIdentifier: "c", url: "http://127.0.0.1/d",
                                                            applicationGroupIdentifier: "g"),
        isForeground: false, bytesWritten: 0, bytesExpected: nil, attempts: 0, lastError: nil, nextAttemptAt: nil)

    @Test("Downloads with every field, and with none of the optional ones, print as JSONEncoder prints them")
    func matchesFoundation() throws {
        let downloads = Self.texts.enumerated().map { Self.full($1, seconds: 1_764_151_234.567 + Double($0) * 86_400) }
            + [Self.bare]
        var status = ServiceStatus(processIdentifier: 7, deviceRoot: "/tmp/device", connectionCount: 2, downloads: downloads)
        status.deviceClock = DeviceClockStatus(
            deviceTime: Date(timeIntervalSince1970: 1_800_000_000), realTime: Date(timeIntervalSince1970: 1_700_000_000),
            timeScale: 60)
        status.pausedWork = "paused"
        try Self.expectSame(StatusFormatter(status: status).json(), StatusFormatter.json(status))
        status.downloads = []
        try Self.expectSame(StatusFormatter(status: status).json(), StatusFormatter.json(status))
    }

    @Test("Printed page by page from the service's bytes, the status is the text JSONEncoder prints for all of it")
    func pagesFromBytesMatchFoundation() throws {
        let downloads = Self.texts.enumerated().map { Self.full($1, seconds: 1_764_151_234.567 + Double($0) * 86_400) }
            + [Self.bare] + Self.texts.map { Self.full($0, seconds: -1.5) }
        var status = ServiceStatus(processIdentifier: 7, deviceRoot: "/tmp/device", connectionCount: 2, downloads: downloads)
        status.pausedWork = "paused"
        let expected = try StatusFormatter.json(status) + "\n"
        // The status answer carries the first two; the service writes three pages of the rest, the way it sends them.
        let pages: [Int64: [UInt8]] = try [
            2: MessageCodec.encode(ServerMessage.response(id: 3, response: .downloadStatuses(
                DownloadStatusPage(downloads: Array(downloads[2..<5]), moreAfter: 5)))),
            5: MessageCodec.encode(ServerMessage.response(id: 4, response: .downloadStatuses(
                DownloadStatusPage(downloads: Array(downloads[5..<7]), moreAfter: 7)))),
            7: MessageCodec.encode(ServerMessage.response(id: 5, response: .downloadStatuses(
                DownloadStatusPage(downloads: Array(downloads[7...]), moreAfter: nil)))),
        ]
        var answer = status
        answer.downloads = Array(downloads[..<2])
        answer.moreDownloadsAfter = 2
        var printed: [UInt8] = []
        var asked: [Int64] = []
        try StatusJSON.print(answer, nextPage: { after in
            asked.append(after)
            let payload = try #require(pages[after])
            return try #require(try StatusPageBytes.parse(payload))
        }, output: { printed += $0 })
        #expect(asked == [2, 5, 7])
        Self.expectSame(String(decoding: printed, as: UTF8.self), expected)
    }

    @Test("A failure instead of a page is the service's message, and bytes that are not a page say so without trapping")
    func pagesThatAreNot() throws {
        let failure = try MessageCodec.encode(ServerMessage.response(
            id: 3, response: .failure(WireFailure(domain: "BAErrorDomain", code: 56, message: "the service is stopping"))))
        #expect(throws: DebugToolError("the service is stopping")) { try StatusPageBytes.parse(failure) }
        let page = try MessageCodec.encode(ServerMessage.response(id: 3, response: .downloadStatuses(
            DownloadStatusPage(downloads: [Self.bare, Self.full("x", seconds: 1)], moreAfter: nil))))
        // The last four bytes close the messages around a page that is already whole, and frames come whole.
        for cut in Array(stride(from: 1, to: page.count - 4, by: 7)) + [page.count - 5] {
            var output: [UInt8] = []
            var isFirst = true
            do {
                try StatusPageBytes.parse(Array(page[..<cut]))?.appendDownloads(to: &output, isFirst: &isFirst)
                Issue.record("a page cut at \(cut) of \(page.count) bytes was read")
            } catch {
                #expect(error.description.contains("rebuild the tool") || error.description.contains("cannot read"), "\(error)")
            }
        }
        #expect(try StatusPageBytes.parse(MessageCodec.encode(ServerMessage.event(.installProgress(
            bundleIdentifier: "a", progress: InstallProgress(phase: .complete, completedBytes: 1, totalBytes: 1))))) == nil)
    }

    /// Expects equal texts, naming the first line that differs.
    static func expectSame(_ written: String, _ expected: String) {
        let lines = (written.split(separator: "\n", omittingEmptySubsequences: false),
                     expected.split(separator: "\n", omittingEmptySubsequences: false))
        let first = zip(lines.0, lines.1).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(written == expected, "line \(first?.offset ?? -1): \(first.map { "\($0.element.0) vs \($0.element.1)" } ?? "lengths differ")")
    }
}
