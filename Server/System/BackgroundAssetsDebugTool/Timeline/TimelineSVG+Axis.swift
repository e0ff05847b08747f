/*
Abstract:
Draws the time axis: tick labels in real (and device) time, the grid, and each fold with what it leaves out.
*/

import Foundation

extension TimelineSVG {
    /// The approximate width of a character of the small type, for fitting labels without a font.
    static let smallCharacterWidth = 6.0
    /// The most lines of fold labels under the tick labels.
    static let foldLabelLines = 2

    /// A fold's label, where it goes.
    struct PlacedLabel: Equatable {
        /// The line under the tick labels, from 0.
        var line: Int
        var text: String
        /// The label's middle.
        var x: Double

        /// The label's extent, at the small type's width.
        var extent: ClosedRange<Double> {
            let half = Double(text.count) * TimelineSVG.smallCharacterWidth / 2
            return (x - half)...(x + half)
        }
    }

    /// Places each fold's label over its fold, on the first line where it overlaps no other: every
    /// fold's full label if all of them find room, else every fold's medium one, else each fold the
    /// longest that finds room, down to none (the shaded fold and its tooltip still say it is there).
    /// - Parameters:
    ///   - texts: Each fold's middle and its labels, longest first, left to right.
    ///   - left: The least x a label may reach.
    ///   - right: The greatest.
    /// - Returns: One placement per fold, or nil for a fold left unlabelled.
    static func placeFoldLabels(_ texts: [(middle: Double, labels: [String])], left: Double,
                                right: Double) -> [PlacedLabel?] {
        let tiers = texts.map(\.labels.count).max() ?? 0
        // One length for all reads best; a fold's own fallback is the last resort.
        for tier in 0..<tiers {
            let uniform = place(texts.map { ($0.middle, [$0.labels[min(tier, $0.labels.count - 1)]]) }, left: left, right: right)
            if !uniform.contains(where: { $0 == nil }) { return uniform }
        }
        return place(texts, left: left, right: right)
    }

    private static func place(_ texts: [(middle: Double, labels: [String])], left: Double, right: Double) -> [PlacedLabel?] {
        var placed: [PlacedLabel] = []
        return texts.map { fold in
            for text in fold.labels {
                let half = Double(text.count) * smallCharacterWidth / 2
                // Kept inside the picture: a fold at an edge has its label lean inwards.
                let x = min(max(fold.middle, left + half), right - half)
                for line in 0..<foldLabelLines {
                    let candidate = PlacedLabel(line: line, text: text, x: x)
                    let clear = placed.filter { $0.line == line }.allSatisfy {
                        $0.extent.upperBound + 8 < candidate.extent.lowerBound
                            || candidate.extent.upperBound + 8 < $0.extent.lowerBound
                    }
                    if clear {
                        placed.append(candidate)
                        return candidate
                    }
                }
            }
            return nil
        }
    }

    func drawAxisLabels(into svg: inout SVGDocument, axis: TimelineAxis, y: inout Double) {
        let ticks = axis.ticks()
        let twoLines = timeline.deviceTimeDiffers
        let deviceSpan = timeline.deviceTime(at: timeline.end).timeIntervalSince(timeline.deviceTime(at: timeline.start))
        let closeTicks = zip(ticks, ticks.dropFirst()).contains { $1.timeIntervalSince($0) < 1 }
        func deviceLabel(_ date: Date) -> String {
            // Past a few device hours the labels carry the day, or they would seem to wrap at midnight.
            deviceSpan >= 6 * 3600 ? TimelineStyle.dayAndTime(date) : TimelineStyle.timeOfDay(date, milliseconds: closeTicks)
        }
        let line = y + 12
        if twoLines {
            svg.text("device time (UTC)", [("x", n(TimelineStyle.labelX)), ("y", n(line)), ("class", "tick")])
            svg.text("real time (UTC)", [("x", n(TimelineStyle.labelX)), ("y", n(line + 12)), ("class", "tick")])
        } else {
            svg.text("time (UTC)", [("x", n(TimelineStyle.labelX)), ("y", n(line)), ("class", "tick")])
        }
        var lastRight = -Double.infinity
        for tick in ticks {
            let x = axis.x(tick)
            let device = deviceLabel(timeline.deviceTime(at: tick))
            let real = TimelineStyle.timeOfDay(tick, milliseconds: closeTicks)
            // Two ticks either side of a fold can be close: the later one yields unless both read whole.
            let half = Double(max(device.count, twoLines ? real.count : 0)) * Self.smallCharacterWidth / 2
            guard x - half - 8 > lastRight else { continue }
            lastRight = x + half
            svg.text(device, [("x", n(x)), ("y", n(line)), ("class", "tick"), ("text-anchor", "middle")])
            if twoLines {
                svg.text(real, [("x", n(x)), ("y", n(line + 12)), ("class", "tick"), ("text-anchor", "middle")])
            }
        }
        let foldTop = line + (twoLines ? 24 : 12)
        let folds = axis.folds
        let texts = folds.map { fold in
            let text = timeline.describeFold(from: fold.start, to: fold.end)
            return (middle: (fold.x0 + fold.x1) / 2, labels: [text.label, text.medium, text.short])
        }
        let placements = Self.placeFoldLabels(texts, left: TimelineStyle.plotX - 40, right: TimelineStyle.width - 4)
        for placement in placements.compactMap({ $0 }) {
            svg.text(placement.text, [("x", n(placement.x)), ("y", n(foldTop + Double(placement.line) * 12)),
                                      ("class", "foldlabel"), ("text-anchor", "middle")])
        }
        let foldLines = placements.compactMap { $0?.line }.max().map { $0 + 1 } ?? 0
        y = foldTop - 6 + Double(foldLines) * 12
    }

    func drawGrid(into svg: inout SVGDocument, axis: TimelineAxis, top: Double, bottom: Double) {
        for tick in axis.ticks() {
            let x = n(axis.x(tick))
            svg.element("line", [("x1", x), ("y1", n(top)), ("x2", x), ("y2", n(bottom)), ("stroke", TimelineStyle.grid)])
        }
        // A fold is shaded, and its edges dashed, where the axis's scale changes.
        for fold in axis.folds {
            let text = timeline.describeFold(from: fold.start, to: fold.end)
            svg.element("rect", [
                ("class", "fold"), ("x", n(fold.x0)), ("y", n(top)), ("width", n(fold.x1 - fold.x0)),
                ("height", n(bottom - top)), ("fill", TimelineStyle.foldFill),
                ("data-seconds", String(format: "%.3f", fold.duration)),
            ], title: text.detail)
            for x in [fold.x0, fold.x1] {
                svg.element("line", [("x1", n(x)), ("y1", n(top)), ("x2", n(x)), ("y2", n(bottom)),
                                     ("stroke", TimelineStyle.foldEdge), ("stroke-dasharray", "4 3")])
            }
        }
    }
}
