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

    /// Expects equal texts, naming the first line that differs.
    static func expectSame(_ written: String, _ expected: String) {
        let lines = (written.split(separator: "\n", omittingEmptySubsequences: false),
                     expected.split(separator: "\n", omittingEmptySubsequences: false))
        let first = zip(lines.0, lines.1).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(written == expected, "line \(first?.offset ?? -1): \(first.map { "\($0.element.0) vs \($0.element.1)" } ?? "lengths differ")")
    }
}
