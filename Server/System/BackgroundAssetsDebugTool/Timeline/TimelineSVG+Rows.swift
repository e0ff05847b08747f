/*
Abstract:
Draws the rows of device activity: installs with their essential phase, extension runs, app launches, tasks, checks, exclusive control.
*/

import Foundation

extension TimelineSVG {
    /// The height of an activity row.
    static let rowHeight = 18.0
    /// The least width of a span, so that a few milliseconds of exclusive control still show at 1x.
    static let minimumSpanWidth = 4.0

    func draw(_ row: ActivityRow, into svg: inout SVGDocument, axis: TimelineAxis, y: inout Double) {
        let top = y + 3
        let height = Self.rowHeight
        svg.open("g", [("class", "activity"), ("data-row", row.kind.rawValue)])
        svg.text(row.title, [("x", n(TimelineStyle.labelX)), ("y", n(top + height / 2 + 4)), ("class", "label")])
        for span in row.spans where span.style != .emphasis {
            draw(span, of: row.kind, into: &svg, axis: axis, top: top, height: height)
        }
        // An install's essential phase goes over the install it belongs to.
        for span in row.spans where span.style == .emphasis {
            draw(span, of: row.kind, into: &svg, axis: axis, top: top + 4, height: height - 8)
        }
        for moment in row.moments { draw(moment, of: row.kind, into: &svg, axis: axis, top: top, height: height) }
        for label in labels(of: row, axis: axis) {
            svg.text(label.text, [("x", n(label.x)), ("y", n(top + height / 2 + 3.5)),
                                  ("class", label.inside ? "inside" : "outside"), ("style", "fill:\(label.colour)")])
        }
        svg.close("g")
        y += height + 6
    }

    /// A row's label, placed.
    struct RowLabel: Equatable {
        var text: String
        var x: Double
        var inside: Bool
        var colour: String
    }

    /// The labels of a row's spans and of its periodic checks, each inside its bar, just right of it,
    /// or left out when neither has room; essential phases first, then left to right.
    func labels(of row: ActivityRow, axis: TimelineAxis) -> [RowLabel] {
        let bars = row.spans.map { span in axis.x(span.start)...max(axis.x(span.end), axis.x(span.start) + Self.minimumSpanWidth) }
        let marks = row.moments.map { moment in (axis.x(moment.time) - 5)...(axis.x(moment.time) + 5) }
        // A tick sits on a bar's top edge, above its text; a diamond or a cross sits where text would.
        let symbols = row.moments.indices.filter { row.moments[$0].style != .tick }.map { marks[$0] }
        let emphases = row.spans.indices.filter { row.spans[$0].style == .emphasis }.map { bars[$0] }
        var taken: [ClosedRange<Double>] = []
        var labels: [RowLabel] = []
        let limit = TimelineStyle.plotX + TimelineStyle.plotWidth + 20
        let rank = { (index: Int) in (row.spans[index].style == .emphasis ? 0 : 1, bars[index].lowerBound) }
        let order = row.spans.indices.sorted { rank($0) < rank($1) }
        for index in order {
            let span = row.spans[index]
            let text = label(of: span, kind: row.kind)
            guard !text.isEmpty else { continue }
            var bar = bars[index]
            // A cross drawn at the end of a span ended by force is part of it.
            if span.endedByForce { bar = bar.lowerBound...(bar.upperBound + 5) }
            // Other bars are obstacles, but not the install an essential phase lies in.
            let others = bars.indices.filter { other in
                other != index && !(bars[other].contains(bar.lowerBound) && bars[other].contains(bar.upperBound))
            }.map { bars[$0] }
            let covered = span.style == .emphasis ? [] : emphases.filter { $0.overlaps(bar) }
            let placement = LabelPlacement.place(text, bar: bar, covered: covered, obstacles: others + symbols + taken,
                                                 limit: limit)
            guard let extent = placement.extent(of: text) else { continue }
            taken.append(extent)
            let inside = if case .inside = placement { true } else { false }
            // White reads on the rows' strong colours; the install's, a background launch's and exclusive
            // control's are too light for it.
            let onLight = row.kind == .install && span.style != .emphasis || span.style == .secondary
                || row.kind == .exclusiveControl
            labels.append(RowLabel(text: text, x: extent.lowerBound, inside: inside,
                                   colour: inside && !onLight ? "#FFFFFF" : TimelineStyle.ink))
        }
        // A periodic check says what came of it beside its diamond.
        for (index, moment) in row.moments.enumerated() where row.kind == .periodic && moment.style == .trigger {
            let mark = marks[index]
            let others = marks.indices.filter { $0 != index }.map { marks[$0] }
            let placement = LabelPlacement.place(moment.label, bar: mark, covered: [mark], obstacles: bars + others + taken,
                                                 limit: limit, leftLimit: TimelineStyle.plotX)
            guard case .outside = placement, let extent = placement.extent(of: moment.label) else { continue }
            taken.append(extent)
            labels.append(RowLabel(text: moment.label, x: extent.lowerBound, inside: false, colour: TimelineStyle.ink))
        }
        return labels
    }

    private func colour(of span: ActivityRow.Span, in kind: ActivityRow.Kind) -> String {
        switch (kind, span.style) {
        case (.install, .emphasis): TimelineStyle.essential
        case (.install, _): TimelineStyle.install
        case (.extension, _): TimelineStyle.extensionColour
        case (.app, .secondary): TimelineStyle.appInBackground
        case (.app, _): TimelineStyle.app
        case (.tasks, _): TimelineStyle.tasks
        case (.periodic, _): TimelineStyle.periodic
        case (.exclusiveControl, .secondary): TimelineStyle.extensionColour
        case (.exclusiveControl, _): TimelineStyle.app
        case (.signposts, _): TimelineStyle.signposts
        }
    }

    private func draw(_ span: ActivityRow.Span, of kind: ActivityRow.Kind, into svg: inout SVGDocument, axis: TimelineAxis,
                      top: Double, height: Double) {
        let x0 = axis.x(span.start)
        let x1 = max(axis.x(span.end), x0 + Self.minimumSpanWidth)
        let duration = span.end.timeIntervalSince(span.start)
        let length = duration < 10 ? String(format: "%.2f s", duration) : DurationText.duration(duration)
        var title = "\(span.label): \(TimelineStyle.timeOfDay(span.start, milliseconds: true)) to "
            + "\(TimelineStyle.timeOfDay(span.end, milliseconds: true)) (\(length))"
        if span.isOpen { title += ", still going when the trace ends" }
        if !span.detail.isEmpty { title += "\n\(span.detail)" }
        let fill = colour(of: span, in: kind)
        svg.element("rect", [("x", n(x0)), ("y", n(top)), ("width", n(x1 - x0)), ("height", n(height)), ("rx", "2"),
                             ("fill", fill), ("fill-opacity", kind == .exclusiveControl ? "0.55" : "0.9")], title: title)
        if span.endedByForce {
            Marks.failed(&svg, x: x1, y: top + height / 2, title: "ended by force: \(span.detail)")
        }
    }

    /// The label a span shows: the task's short name on the tasks row, else the span's own.
    private func label(of span: ActivityRow.Span, kind: ActivityRow.Kind) -> String {
        switch kind {
        case .tasks: String(span.label.split(separator: " ").first?.split(separator: ".").last ?? "")
        default: span.label
        }
    }

    private func draw(_ moment: ActivityRow.Moment, of kind: ActivityRow.Kind, into svg: inout SVGDocument,
                      axis: TimelineAxis, top: Double, height: Double) {
        let x = axis.x(moment.time)
        let title = "\(TimelineStyle.timeOfDay(moment.time, milliseconds: true)) \(moment.label)"
        switch moment.style {
        case .tick:
            let colour = kind == .extension ? "#4B2C78" : kind == .tasks ? "#0A5C55" : TimelineStyle.ink
            Marks.tick(&svg, x: x, top: top - 2, height: 7, colour: colour, title: title)
        case .trigger:
            Marks.trigger(&svg, x: x, y: top + height / 2, colour: kind == .install ? TimelineStyle.ink : TimelineStyle.periodic,
                          title: title)
        case .problem:
            Marks.failed(&svg, x: x, y: top + height / 2, title: title)
        }
    }
}
