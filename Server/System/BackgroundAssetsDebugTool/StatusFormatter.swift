/*
Abstract:
Renders a service status three ways: an aligned table, key=value lines, and JSON.
*/

import BackgroundAssetsIPC
import Foundation

/// Turns a ``ServiceStatus`` into text for people (a table), for scripts (lines), or for programs (JSON).
struct StatusFormatter {
    var status: ServiceStatus
    /// The present, against which the next periodic check is shown as "in 3 h 12 min"; fixed by tests.
    var now = Date.now

    /// The line about the service itself.
    var summary: String {
        "backgroundassetsd pid \(status.processIdentifier), device root \(status.deviceRoot), "
            + "\(status.connectionCount) connection(s), \(status.apps.count) app(s), "
            + "\(status.downloads.count) download(s)"
    }

    /// The line saying why transfers are paused, while they are.
    private var pause: [String] {
        status.pausedWork.map { ["paused: " + $0] } ?? []
    }

    /// The status as pretty-printed JSON with sorted keys and ISO 8601 dates.
    func json() throws -> String {
        try StatusJSON.text(status)
    }

    /// Any value as the tool prints JSON: pretty-printed, sorted keys, ISO 8601 dates.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The service's line, the settings' line (`settings low-power=off ...`), the device clock's while
    /// it runs apart from real time (`clock device-time=...`), then one `key=value` line per app
    /// (starting `bundle-id=`) and per download (starting `app=`), stable for `grep` and `awk`, and
    /// last one line per Background Tasks request (starting `task `).
    func lines() -> String {
        let rows = status.downloads.map { download in
            fields(download).map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        let settings = SettingsFormatter(settings: status.settings).pairs()
        let clock = status.deviceClock.flatMap { DeviceClockText(clock: $0).statusPairs }.map { [$0] } ?? []
        let tasks = TaskFormatter(tasks: status.tasks ?? []).lines().map { "task " + $0 }
        let packs = PackFormatter(apps: status.apps).lines().map { "pack " + $0 }
        return ([summary] + pause + [settings] + clock + appLines() + rows + tasks + packs).joined(separator: "\n")
    }

    /// The service's line, the settings, the apps, then the downloads as an aligned table under a header row.
    func table() -> String {
        // The device's clock only while it runs apart from real time, when device dates look wrong without it.
        let clock = status.deviceClock.flatMap { DeviceClockText(clock: $0).statusLine }.map { [$0] } ?? []
        let head = [summary] + pause + [SettingsFormatter(settings: status.settings).summary] + clock
            + ["", appSection(), ""]
        // Background Tasks come last, and only when there are any, so the rest reads the same without them.
        let tasks = TaskFormatter(tasks: status.tasks ?? []).section().map { ["", $0] } ?? []
        let packs = PackFormatter(apps: status.apps).section().map { ["", $0] } ?? []
        return (head + [downloadTable()] + tasks + packs).joined(separator: "\n")
    }

    /// The downloads as an aligned table with a header row.
    private func downloadTable() -> String {
        guard !status.downloads.isEmpty else { return "No downloads." }
        let rows = status.downloads.map { fields($0).map(\.value) }
        let header = fields(status.downloads[0]).map { $0.key.uppercased() }
        let all = [header] + rows
        // The last column (the error) is left ragged: padding it would only add trailing spaces.
        let widths = (0..<header.count).map { column in all.map { $0[column].count }.max() ?? 0 }
        let text = all.map { row in
            row.enumerated().map { column, value in
                column == row.count - 1 ? value : value.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return text.joined(separator: "\n")
    }

    /// The columns of one download, in display order; values never contain spaces except the error.
    private func fields(_ download: DownloadStatus) -> [(key: String, value: String)] {
        let descriptor = download.download
        return [
            ("app", download.bundleIdentifier),
            ("id", Self.shortened(descriptor.identifier)),
            ("state", Self.name(of: descriptor.state)),
            ("essential", descriptor.isEssential ? "yes" : "no"),
            ("foreground", download.isForeground ? "yes" : "no"),
            ("written", String(download.bytesWritten)),
            ("expected", download.bytesExpected.map(String.init) ?? "-"),
            ("attempts", String(download.attempts)),
            ("next-retry", download.waitsUntilReachable == true ? "when-reachable" : download.nextAttemptAt.map(Self.time) ?? "-"),
            ("error", download.lastError.map { "\"\($0.message)\"" } ?? "-"),
        ]
    }

    static func name(of state: DownloadDescriptor.State) -> String {
        switch state {
        case .failed: "failed"
        case .created: "created"
        case .waiting: "waiting"
        case .downloading: "downloading"
        case .finished: "finished"
        }
    }

    /// An identifier safe to print on one line: control characters escaped, very long ones cut.
    static func shortened(_ identifier: String) -> String {
        var escaped = String(identifier.debugDescription.dropFirst().dropLast())
        escaped = escaped.replacingOccurrences(of: " ", with: "\\u{20}")
        return escaped.count > 60 ? String(escaped.prefix(57)) + "..." : escaped
    }

    private static func time(_ date: Date) -> String {
        // Waiting for an answer to a challenge is stored as the distant future.
        date > .now.addingTimeInterval(365 * 86_400) ? "never" : date.ISO8601Format()
    }
}
