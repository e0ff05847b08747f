/*
Abstract:
Draws a timeline as a standalone SVG: title, legend, transfer rate, device activity, one lane per download, time axis.
*/

import Foundation

/// Renders a ``Timeline`` as an SVG picture with no external resources: fonts fall back to the
/// reader's sans-serif, and every shape carries a tooltip (`<title>`) with its details.
///
/// Up to ``fullLaneLimit`` downloads each get a labelled lane with their bytes over time; more get a
/// thin bar each, and past ``thinLaneLimit`` several downloads share a row, drawn translucent so
/// the rows show how many ran at once.
struct TimelineSVG {
    /// The most downloads drawn as full lanes.
    static let fullLaneLimit = 40
    /// The most rows of thin lanes; more downloads share rows.
    static let thinLaneLimit = 160

    let timeline: Timeline
    /// A line under the title: where the trace came from and how it was narrowed.
    let caption: String

    /// How tall a download's lane is, and how many downloads share one row.
    struct LaneLayout: Equatable {
        var height: Double
        var gap: Double
        var downloadsPerRow: Int
        var isFull: Bool { downloadsPerRow == 1 && height >= 20 }
    }

    /// The lane layout for a number of downloads.
    static func laneLayout(for count: Int) -> LaneLayout {
        if count <= fullLaneLimit { return LaneLayout(height: 22, gap: 4, downloadsPerRow: 1) }
        if count <= thinLaneLimit { return LaneLayout(height: 5, gap: 1, downloadsPerRow: 1) }
        let perRow = Int((Double(count) / Double(thinLaneLimit)).rounded(.up))
        return LaneLayout(height: 3, gap: 0, downloadsPerRow: perRow)
    }

    /// The picture.
    func render() -> String {
        var svg = SVGDocument()
        let axis = TimelineAxis(times: timeline.eventTimes, start: timeline.start, end: timeline.end,
                                x0: TimelineStyle.plotX, width: TimelineStyle.plotWidth)
        var y = 0.0
        drawHeader(into: &svg, y: &y)
        drawLegend(into: &svg, y: &y)
        let plotTop = y
        drawAxisLabels(into: &svg, axis: axis, y: &y)
        drawThroughput(into: &svg, axis: axis, y: &y)
        for row in timeline.rows { draw(row, into: &svg, axis: axis, y: &y) }
        drawLanes(into: &svg, axis: axis, y: &y)
        let plotBottom = y
        y += 6
        drawAxisLabels(into: &svg, axis: axis, y: &y)
        drawFootnote(into: &svg, axis: axis, y: &y)

        // The grid and the folds go under everything else: drawn last, placed first.
        var furniture = SVGDocument()
        drawGrid(into: &furniture, axis: axis, top: plotTop, bottom: plotBottom)
        return svg.document(over: furniture, width: TimelineStyle.width, height: y + 12, style: TimelineStyle.sheet)
    }

    // MARK: - Header and legend

    private func drawHeader(into svg: inout SVGDocument, y: inout Double) {
        // The title counts what the lanes draw, so a picture of a partial run says so at once.
        svg.text("Timeline of \(timeline.subject): \(timeline.headline)", [("x", "16"), ("y", "28"), ("class", "title")])
        let seconds = timeline.end.timeIntervalSince(timeline.start)
        let span = seconds < 60 ? String(format: "%.1f s", seconds) : DurationText.duration(seconds)
        let times = "\(TimelineStyle.timeOfDay(timeline.start)) to \(TimelineStyle.timeOfDay(timeline.end)) UTC "
            + "(\(span) real time)"
        let parts = [timeline.tally.joined(separator: ", "), times, caption].filter { !$0.isEmpty }
        svg.text(parts.joined(separator: " · "), [("x", "16"), ("y", "48"), ("class", "subtitle")])
        y = 60
    }

    private func drawLegend(into svg: inout SVGDocument, y: inout Double) {
        let row = y + 14
        var x = 16.0
        func swatch(_ colour: String, _ label: String) {
            svg.element("rect", [("x", n(x)), ("y", n(row - 9)), ("width", "14"), ("height", "10"), ("rx", "2"), ("fill", colour)])
            svg.text(label, [("x", n(x + 19)), ("y", n(row)), ("class", "label")])
            x += 26 + Double(label.count) * 6.7
        }
        func symbol(_ draw: (inout SVGDocument, Double, Double) -> Void, _ label: String) {
            draw(&svg, x + 6, row - 4)
            svg.text(label, [("x", n(x + 16)), ("y", n(row)), ("class", "label")])
            x += 24 + Double(label.count) * 6.7
        }
        swatch(TimelineStyle.essential, "essential")
        swatch(TimelineStyle.background, "background")
        swatch(TimelineStyle.foreground, "foreground")
        symbol({ svg, cx, cy in Marks.waiting(&svg, from: cx - 6, to: cx + 6, y: cy) }, "queued or waiting")
        symbol({ svg, cx, cy in Marks.promoted(&svg, x: cx, y: cy + 4, title: nil) }, "promoted")
        symbol({ svg, cx, cy in Marks.retry(&svg, x: cx, y: cy, title: nil) }, "retry")
        symbol({ svg, cx, cy in Marks.finished(&svg, x: cx, y: cy, title: nil) }, "finished")
        symbol({ svg, cx, cy in Marks.failed(&svg, x: cx, y: cy, title: nil) }, "failed")
        swatch(TimelineStyle.install, "install")
        swatch(TimelineStyle.extensionColour, "extension")
        swatch(TimelineStyle.app, "app")
        swatch(TimelineStyle.tasks, "task")
        symbol({ svg, cx, cy in Marks.trigger(&svg, x: cx, y: cy, colour: TimelineStyle.periodic, title: nil) }, "check")
        y += 26
    }

    private func drawFootnote(into svg: inout SVGDocument, axis: TimelineAxis, y: inout Double) {
        var sentences = ["Times are UTC, as backgroundassets-debug trace prints them."]
        if timeline.deviceTimeDiffers {
            sentences.append("The device's clock ran apart from real time (timeScale, or a clock left ahead): the axis shows both.")
        }
        if !axis.folds.isEmpty {
            sentences.append("A shaded fold is a long stretch in which nothing happened but bytes arriving, "
                + "drawn narrower and labelled with how long it lasted.")
        }
        sentences.append("Hover over a shape for its details.")
        // Whole sentences to a line, as many as the page's width holds in the small type.
        let perLine = Int((TimelineStyle.width - 32) / Self.smallCharacterWidth * 1.1)
        var lines: [String] = []
        for sentence in sentences {
            if let last = lines.last, last.count + 1 + sentence.count <= perLine {
                lines[lines.count - 1] = last + " " + sentence
            } else {
                lines.append(sentence)
            }
        }
        for line in lines {
            svg.text(line, [("x", "16"), ("y", n(y + 12)), ("class", "small")])
            y += 13
        }
        y += 5
    }

    /// A coordinate as the document writes it.
    func n(_ value: Double) -> String { SVGDocument.number(value) }
}
