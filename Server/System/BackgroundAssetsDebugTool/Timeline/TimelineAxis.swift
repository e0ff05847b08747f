/*
Abstract:
The timeline's horizontal axis: real time to x, on one scale except in folds, the long stretches
in which nothing but transfer progress happened.
*/

import Foundation

/// Maps real time to x. Every stretch is drawn to one scale, except the long ones between two events
/// in which nothing happened but bytes arriving (an essential download filling for a minute, the
/// quiet between two chapters of the tutorial): those are folded into a narrow band of fixed width,
/// drawn to a smaller scale of their own, so each burst of activity keeps its room. The picture marks
/// every fold and says how long it lasted, so it stays honest about time.
struct TimelineAxis: Sendable {
    /// A stretch of time and the x range it is drawn in.
    struct Segment: Sendable, Equatable {
        var start: Date
        var end: Date
        var x0: Double
        var x1: Double
        /// Whether the stretch is folded: drawn narrower than the axis's scale.
        var isFolded = false

        /// Pixels per second within the segment.
        var scale: Double {
            let duration = end.timeIntervalSince(start)
            return duration > 0 ? (x1 - x0) / duration : 0
        }

        /// How long the stretch lasted.
        var duration: TimeInterval { end.timeIntervalSince(start) }
    }

    /// The width of a fold, whatever it leaves out: wide enough for its duration in small type.
    static let foldWidth = 64.0
    /// The least width of a stretch drawn to scale, so a lone event still has room for its symbol.
    static let minimumSegmentWidth = 36.0
    /// A gap between events is folded when it is longer than this part of the whole picture's time,…
    static let foldFraction = 1.0 / 8
    /// …than this many times the typical gap, so that events evenly spread are never folded,…
    static let typicalGapFactor = 4.0
    /// …and than this many seconds, so that sub-second jitter between events is never folded.
    static let minimumFold: TimeInterval = 0.25

    /// The stretches left to right, folded ones included; they tile the axis without gaps in time.
    let segments: [Segment]

    /// The folded stretches, left to right.
    var folds: [Segment] { segments.filter(\.isFolded) }

    /// The gap between two events beyond which a stretch is folded.
    /// - Parameters:
    ///   - gaps: Every gap between two consecutive events.
    ///   - total: The time the whole axis shows.
    /// - Returns: The threshold, in seconds.
    static func foldThreshold(gaps: [TimeInterval], total: TimeInterval) -> TimeInterval {
        let positive = gaps.filter { $0 > 0 }.sorted()
        // The lower median: a burst of events makes the typical gap short, and the quiet between bursts long.
        let typical = positive.isEmpty ? 0 : positive[(positive.count - 1) / 2]
        return max(minimumFold, total * foldFraction, typical * typicalGapFactor)
    }

    /// Lays out an axis.
    /// - Parameters:
    ///   - times: The times of the events that deserve room (not transfer progress), in any order.
    ///   - start: The first time to show.
    ///   - end: The last time to show.
    ///   - x0: Where the axis begins.
    ///   - width: How wide it is.
    init(times: [Date], start: Date, end: Date, x0: Double, width: Double) {
        let end = max(end, start)
        let boundaries = ([start, end] + times.filter { $0 > start && $0 < end }).sorted()
        let threshold = Self.foldThreshold(gaps: zip(boundaries, boundaries.dropFirst()).map { $1.timeIntervalSince($0) },
                                           total: max(end.timeIntervalSince(start), 0.001))
        var gaps = zip(boundaries, boundaries.dropFirst())
            .filter { $1.timeIntervalSince($0) > threshold }
            .map { (start: $0, end: $1) }
        // No more folds than leave every stretch between them its least width; the longest ones win.
        let mostFolds = max(0, Int((width - Self.minimumSegmentWidth) / (Self.foldWidth + Self.minimumSegmentWidth)))
        if gaps.count > mostFolds {
            gaps = Array(gaps.sorted { $0.end.timeIntervalSince($0.start) > $1.end.timeIntervalSince($1.start) }
                .prefix(mostFolds)).sorted { $0.start < $1.start }
        }

        // Folds alternate with stretches to scale; one of no duration still holds its event's symbol.
        var stretches: [Segment] = []
        var cursor = start
        for gap in gaps {
            stretches.append(Segment(start: cursor, end: gap.start, x0: 0, x1: 0))
            stretches.append(Segment(start: gap.start, end: gap.end, x0: 0, x1: 0, isFolded: true))
            cursor = gap.end
        }
        stretches.append(Segment(start: cursor, end: end, x0: 0, x1: 0))

        let scaled = stretches.indices.filter { !stretches[$0].isFolded }
        let available = max(width - Double(gaps.count) * Self.foldWidth,
                            Self.minimumSegmentWidth * Double(scaled.count))
        let widths = Self.share(available, by: scaled.map { stretches[$0].duration })
        var x = x0
        for index in stretches.indices {
            let segmentWidth = stretches[index].isFolded ? Self.foldWidth : widths[scaled.firstIndex(of: index) ?? 0]
            stretches[index].x0 = x
            stretches[index].x1 = x + segmentWidth
            x += segmentWidth
        }
        segments = stretches
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

    /// The x of a real time, on its segment's scale; a time in a fold lies in the fold, in order.
    func x(_ time: Date) -> Double {
        guard let first = segments.first, let last = segments.last else { return 0 }
        if time <= first.start { return first.x0 }
        for segment in segments where time <= segment.end {
            return segment.x0 + time.timeIntervalSince(segment.start) * segment.scale
        }
        return last.x1
    }

    /// Round times to label within each stretch drawn to scale, at least `spacing` pixels apart; a fold
    /// has none, since its scale is not the axis's.
    /// - Parameter spacing: The least distance between two labels.
    /// - Returns: The times, left to right.
    func ticks(spacing: Double = 110) -> [Date] {
        let steps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200,
                               21_600, 43_200, 86_400]
        return segments.filter { !$0.isFolded }.flatMap { segment -> [Date] in
            // A lone event between two folds has no scale to read a time off, and an odd time beside them.
            guard segment.scale > 0 else { return [] }
            let step = steps.first { $0 * segment.scale >= spacing } ?? 86_400
            let first = (segment.start.timeIntervalSince1970 / step).rounded(.up) * step
            return stride(from: first, through: segment.end.timeIntervalSince1970, by: step)
                .map { Date(timeIntervalSince1970: $0) }
        }
    }
}
