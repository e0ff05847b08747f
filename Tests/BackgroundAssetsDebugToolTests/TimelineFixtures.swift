/*
Abstract:
Trace entries for the timeline's tests: a clock to stamp them, and a run of many downloads.
*/

import BackgroundAssetsIPC
import Foundation

/// Writes trace entries the way the service does, at times a test chooses.
struct TraceScript {
    static let app = "com.example.app"
    static let start = Date(timeIntervalSince1970: 1_795_521_600)

    private(set) var entries: [TraceEntry] = []

    /// Adds an entry `seconds` after ``start``.
    mutating func at(
        _ seconds: Double, _ event: String, from: String = "backgroundassetsd", to: String = "nobody",
        download: String? = nil, detail: String? = nil, transfer: TraceTransfer? = nil, deviceTime: Date? = nil
    ) {
        entries.append(TraceEntry(
            time: Self.start.addingTimeInterval(seconds), from: from, to: to, event: event, app: Self.app,
            download: download, detail: detail, deviceTime: deviceTime, transfer: transfer))
    }

    /// A transfer record of a file of `expected` bytes.
    static func transfer(_ written: Int64, of expected: Int64 = 1_000_000, foreground: Bool = false,
                         essential: Bool = false) -> TraceTransfer {
        TraceTransfer(written: written, expected: expected, foreground: foreground, essential: essential,
                      priority: essential ? 1000 : 0)
    }

    /// An install whose extension returns `count` downloads that each run, in the background, for a
    /// second, one after another a fraction of a second apart, and finish; every 50th fails.
    static func manyDownloads(_ count: Int) -> TraceScript {
        var script = TraceScript()
        script.at(0, "install", from: "tool", to: "backgroundassetsd", detail: "version 1")
        script.at(0.01, "contentRequest", to: "backgroundassetsd", detail: "install")
        script.at(0.02, "extensionLaunched", to: "extension", detail: "pid 100")
        script.at(0.2, "scheduleReturnedDownloads", to: "backgroundassetsd", detail: "\(count) scheduled, 0 refused")
        script.at(0.25, "extensionExited", from: "extension", to: "backgroundassetsd", detail: "exited with status 0")
        script.at(0.3, "appLaunchable", to: "backgroundassetsd")
        for index in 0..<count {
            let id = "session-\(index)"
            let begin = 0.3 + Double(index) * 0.02
            script.at(begin, "downloadDidBegin", download: id, transfer: transfer(0))
            script.at(begin + 0.5, TraceEntry.progressEvent, download: id, transfer: transfer(500_000))
            if index % 50 == 49 {
                script.at(begin + 1, "failedWithError", download: id, detail: "Server error: answered 404", transfer: transfer(500_000))
            } else {
                script.at(begin + 1, "finishedWithFileURL", download: id, transfer: transfer(1_000_000))
            }
        }
        script.entries.sort { $0.time < $1.time }
        return script
    }
}
