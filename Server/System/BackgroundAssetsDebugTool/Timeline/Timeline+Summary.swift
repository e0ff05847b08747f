/*
Abstract:
What a timeline holds, counted for its title, and what each fold of its axis leaves out, in words.
*/

import Foundation

extension Timeline {
    /// The title's count of the lanes drawn: `12 downloads, 98.5 MiB`, or `no downloads`.
    var headline: String {
        switch lanes.count {
        case 0: "no downloads"
        case 1: "1 download, \(TimelineStyle.bytes(bytesTransferred))"
        default: "\(lanes.count) downloads, \(TimelineStyle.bytes(bytesTransferred))"
        }
    }

    /// How the lanes end and what the rows hold, each counted, for the line under the title:
    /// `11 finished`, `1 failed`, `10 promoted`, `2 extension runs`, `1 periodic check`.
    var tally: [String] {
        func counted(_ count: Int, _ one: String, _ many: String) -> String? {
            count == 0 ? nil : "\(count) \(count == 1 ? one : many)"
        }
        let outcomes = lanes.map(\.outcome)
        func ended(_ outcome: DownloadLane.Outcome) -> Int { outcomes.filter { $0 == outcome }.count }
        let row = { (kind: ActivityRow.Kind) in rows.first { $0.kind == kind } }
        let appSpans = row(.app)?.spans ?? []
        return [
            counted(ended(.finished), "finished", "finished"),
            counted(ended(.failed), "failed", "failed"),
            counted(ended(.cancelled), "cancelled", "cancelled"),
            counted(ended(.transferring), "still transferring", "still transferring"),
            counted(ended(.waiting), "waiting", "waiting"),
            counted(lanes.filter(\.wasPromoted).count, "promoted", "promoted"),
            counted(row(.periodic)?.moments.filter { $0.style == .trigger }.count ?? 0, "periodic check", "periodic checks"),
            counted(row(.extension)?.spans.count ?? 0, "extension run", "extension runs"),
            counted(appSpans.filter { $0.style == .main }.count, "app launch", "app launches"),
            counted(appSpans.filter { $0.style == .secondary }.count, "background launch", "background launches"),
            counted(row(.tasks)?.spans.count ?? 0, "task", "tasks"),
        ].compactMap { $0 }
    }

    /// What a fold leaves out, in words.
    struct FoldText: Equatable {
        /// Drawn over the fold when there is room: `⋯ 41 s of steady download ⋯`.
        var label: String
        /// Drawn when there is not, the how long alone: `⋯ 6.0 s (device: 5 h 58 min) ⋯`.
        var medium: String
        /// Drawn when even that has no room: `41 s`.
        var short: String
        /// The fold's tooltip: its times, what moved in it, and that it is drawn narrower.
        var detail: String
    }

    /// Describes the stretch a fold of the axis leaves out.
    /// - Parameters:
    ///   - start: Where the fold begins.
    ///   - end: Where it ends.
    /// - Returns: Its label, short label and tooltip.
    func describeFold(from start: Date, to end: Date) -> FoldText {
        let real = Self.durationText(end.timeIntervalSince(start))
        let deviceSpan = deviceTime(at: end).timeIntervalSince(deviceTime(at: start))
        // At an accelerated clock the device's hours are what the reader is waiting for.
        let device = deviceTimeDiffers && abs(deviceSpan - end.timeIntervalSince(start)) >= 1
            ? " (device: \(Self.durationText(deviceSpan)))" : ""
        let transferring = lanes.filter { lane in lane.runs.contains { $0.start < end && $0.end > start } }
        let what = transferring.isEmpty ? "with no events" : "of steady download"
        let downloads = transferring.count == 1 ? "1 download" : "\(transferring.count) downloads"
        let moved = transferring.isEmpty ? "nothing happened" : "\(downloads) transferred and nothing else happened"
        let detail = "Folded: \(real)\(device), \(TimelineStyle.timeOfDay(start, milliseconds: true)) to "
            + "\(TimelineStyle.timeOfDay(end, milliseconds: true)) UTC, in which \(moved); "
            + "drawn narrower than the rest of the axis"
        return FoldText(label: "⋯ \(real)\(device) \(what) ⋯", medium: "⋯ \(real)\(device) ⋯", short: real, detail: detail)
    }

    /// A span of time as a fold's label gives it: `0.40 s`, `1.7 s`, `41 s`, `4 h 54 min`.
    static func durationText(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<1: String(format: "%.2f s", seconds)
        case ..<10: String(format: "%.1f s", seconds)
        case ..<60: String(format: "%.0f s", seconds)
        default: DurationText.duration(seconds)
        }
    }
}
