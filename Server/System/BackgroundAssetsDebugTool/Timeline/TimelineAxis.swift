/*
Abstract:
The timeline's horizontal axis: real time to x, with the quiet stretches between bursts of activity cut out.
*/

import Foundation

/// Maps real time to x. Long stretches in which nothing happened (between chapters of the tutorial,
/// say) are cut out and drawn as a break of fixed width, so the bursts of activity keep their room.
struct TimelineAxis: Sendable {
    /// A stretch of time drawn to scale.
    struct Segment: Sendable, Equatable {
        var start: Date
        var end: Date
        var x0: Double
        var x1: Double

        /// Pixels per second within the segment.
        var scale: Double {
            let duration = end.timeIntervalSince(start)
            return duration > 0 ? (x1 - x0) / duration : 0
        }
    }

    /// The width of the break drawn for a stretch cut out.
    static let breakWidth = 26.0
    /// The least width of a segment, so a lone event still has room for its symbol.
    static let minimumSegmentWidth = 36.0

    /// The stretches drawn to scale, left to right; a break lies between each two.
    let segments: [Segment]

    /// Lays out an axis.
    /// - Parameters:
    ///   - times: Every event's time, sorted.
    ///   - start: The first time to show.
    ///   - end: The last time to show.
    ///   - x0: Where the axis begins.
    ///   - width: How wide it is.
    init(times: [Date], start: Date, end: Date, x0: Double, width: Double) {
        let total = max(end.timeIntervalSince(start), 0.001)
        // A stretch is quiet when it is longer than ten seconds and than a twentieth of the whole.
        let quiet = max(10, total / 20)
        var stretches: [(start: Date, end: Date)] = []
        var current = (start: start, end: start)
        for time in times where time > current.end {
            if time.timeIntervalSince(current.end) > quiet {
                stretches.append(current)
                current = (time, time)
            } else {
                current.end = time
            }
        }
        current.end = max(current.end, min(end, current.end.addingTimeInterval(quiet)))
        stretches.append(current)

        let breaks = Double(stretches.count - 1) * Self.breakWidth
        let available = max(width - breaks, Self.minimumSegmentWidth * Double(stretches.count))
        let durations = stretches.map { max($0.end.timeIntervalSince($0.start), 0) }
        let widths = Self.share(available, by: durations)
        var x = x0
        var segments: [Segment] = []
        for (index, stretch) in stretches.enumerated() {
            segments.append(Segment(start: stretch.start, end: stretch.end, x0: x, x1: x + widths[index]))
            x += widths[index] + Self.breakWidth
        }
        self.segments = segments
    }

    /// Shares a width among segments in proportion to their durations, each at least the minimum.
    private static func share(_ width: Double, by durations: [Double]) -> [Double] {
        var floored = Set<Int>()
        while true {
            let rest = width - Double(floored.count) * minimumSegmentWidth
            let restDuration = durations.indices.filter { !floored.contains($0) }.map { durations[$0] }.reduce(0, +)
            var widths = durations.indices.map { floored.contains($0) ? minimumSegmentWidth : 0 }
            let free = durations.indices.filter { !floored.contains($0) }
            guard !free.isEmpty else { return widths }
            for index in free {
                widths[index] = restDuration > 0 ? rest * durations[index] / restDuration : rest / Double(free.count)
            }
            let tooNarrow = free.filter { widths[$0] < minimumSegmentWidth }
            if tooNarrow.isEmpty { return widths }
            floored.formUnion(tooNarrow)
        }
    }

    /// The x of a real time; a time inside a break lies at the break's middle.
    func x(_ time: Date) -> Double {
        guard let first = segments.first, let last = segments.last else { return 0 }
        if time <= first.start { return first.x0 }
        for (index, segment) in segments.enumerated() {
            if time <= segment.end {
                return segment.x0 + time.timeIntervalSince(segment.start) * segment.scale
            }
            if index + 1 < segments.count, time < segments[index + 1].start {
                return segment.x1 + Self.breakWidth / 2
            }
        }
        return last.x1
    }

    /// The breaks, as the x where each begins and the time it leaves out.
    var breaks: [(x: Double, duration: TimeInterval)] {
        zip(segments, segments.dropFirst()).map { ($0.x1, $1.start.timeIntervalSince($0.end)) }
    }

    /// Round times to label within each segment, at least `spacing` pixels apart.
    /// - Parameter spacing: The least distance between two labels.
    /// - Returns: The times, left to right.
    func ticks(spacing: Double = 110) -> [Date] {
        let steps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21_600, 43_200, 86_400]
        return segments.flatMap { segment -> [Date] in
            guard segment.scale > 0 else { return [segment.start] }
            let step = steps.first { $0 * segment.scale >= spacing } ?? 86_400
            let first = (segment.start.timeIntervalSince1970 / step).rounded(.up) * step
            return stride(from: first, through: segment.end.timeIntervalSince1970, by: step)
                .map { Date(timeIntervalSince1970: $0) }
        }
    }
}
