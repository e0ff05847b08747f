/*
Abstract:
A run of the device as a timeline: one lane per download, the rows of device activity, and the device's clock.
*/

import BackgroundAssetsIPC
import Foundation

/// What `backgroundassets-debug trace --svg` draws, read from the trace: every download's bytes
/// over time and what happened to it, and what the system, the app and its extension did meanwhile.
///
/// Times are real times, as the trace records them; ``deviceTime(at:)`` converts one to the
/// device's time, which runs apart from real time when `timeScale` accelerates it or after it
/// ran ahead.
struct Timeline: Sendable {
    /// The first and last entry's time.
    let start: Date
    let end: Date
    /// One lane per download that transferred, was queued or ended within the trace.
    let lanes: [DownloadLane]
    /// The device's activity, only the rows with something to draw.
    let rows: [ActivityRow]
    /// The apps the trace names, in order of appearance.
    let apps: [String]
    /// Every entry's real time but transfer progress, in order: the moments that deserve room on the
    /// axis, and between which a long stretch can be folded.
    let eventTimes: [Date]
    /// Pairs of real and device time, where the trace recorded the device's clock.
    private let clockPoints: [(real: Date, device: Date)]

    /// Builds the timeline of some trace entries.
    /// - Parameter entries: The entries, in the order of the trace (filtered, if wanted).
    init(entries: [TraceEntry]) {
        let entries = entries.sorted { $0.time < $1.time }
        var lanes = DownloadLaneBuilder()
        var rows = ActivityRowBuilder()
        var apps: [String] = []
        for entry in entries {
            lanes.add(entry)
            rows.add(entry)
            if let app = entry.app, !apps.contains(app) { apps.append(app) }
        }
        let start = entries.first?.time ?? .now
        let end = max(start, entries.last?.time ?? start)
        self.start = start
        self.end = end
        self.lanes = lanes.lanes(endingAt: end)
        self.rows = rows.rows(endingAt: end)
        self.apps = apps
        eventTimes = entries.filter { $0.event != TraceEntry.progressEvent }.map(\.time)
        // Only the service knows the device's clock: an app's signpost lines carry real time alone.
        clockPoints = entries.filter { $0.signpost == nil }.map { ($0.time, $0.effectiveDeviceTime) }
    }

    /// What the picture is of: the one app whose downloads it shows, or the device.
    var subject: String {
        let downloading = Set(lanes.map(\.app))
        if downloading.count == 1, let app = downloading.first { return app }
        // The debug tool connects under a bundle identifier of its own; it is not what the picture is of.
        let installed = apps.filter { $0 != ToolContext.bundleIdentifier }
        return downloading.isEmpty && installed.count == 1 ? installed[0] : "the device"
    }

    /// Whether the device's clock ran apart from real time anywhere in the trace.
    var deviceTimeDiffers: Bool {
        clockPoints.contains { abs($0.device.timeIntervalSince($0.real)) >= 1 }
    }

    /// The device's time at a real time, interpolated between the entries around it.
    func deviceTime(at real: Date) -> Date {
        guard let after = clockPoints.firstIndex(where: { $0.real >= real }) else {
            guard let last = clockPoints.last else { return real }
            return last.device.addingTimeInterval(real.timeIntervalSince(last.real) * rate(endingAt: clockPoints.count - 1))
        }
        let next = clockPoints[after]
        guard after > 0 else { return next.device.addingTimeInterval(real.timeIntervalSince(next.real)) }
        let previous = clockPoints[after - 1]
        let span = next.real.timeIntervalSince(previous.real)
        guard span > 0 else { return next.device }
        let fraction = real.timeIntervalSince(previous.real) / span
        return previous.device.addingTimeInterval(next.device.timeIntervalSince(previous.device) * fraction)
    }

    /// How many device seconds passed per real second just before a clock point.
    private func rate(endingAt index: Int) -> Double {
        guard index > 0 else { return 1 }
        let real = clockPoints[index].real.timeIntervalSince(clockPoints[index - 1].real)
        let device = clockPoints[index].device.timeIntervalSince(clockPoints[index - 1].device)
        return real > 0 && device >= 0 ? device / real : 1
    }

    /// The bytes every lane transferred, as the highest sample of each.
    var bytesTransferred: Int64 {
        lanes.reduce(0) { $0 + $1.bytesReached }
    }
}
