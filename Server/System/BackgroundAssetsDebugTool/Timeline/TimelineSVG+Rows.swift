/*
Abstract:
Draws the rows of device activity: installs with their essential phase, extension runs, app launches, tasks, checks, exclusive control.
*/

import Foundation

extension TimelineSVG {
    /// The height of an activity row.
    static let rowHeight = 18.0

    func draw(_ row: ActivityRow, into svg: inout SVGDocument, axis: TimelineAxis, y: inout Double) {
        let top = y + 3
        let height = Self.rowHeight
        svg.open("g", [("class", "activity"), ("data-row", row.kind.rawValue)])
        svg.text(row.title, [("x", n(TimelineStyle.labelX)), ("y", n(top + height / 2 + 4)), ("class", "label")])
        let emphases = row.spans.filter { $0.style == .emphasis }.map { (axis.x($0.start), axis.x($0.end)) }
        for span in row.spans where span.style != .emphasis {
            draw(span, of: row.kind, into: &svg, axis: axis, top: top, height: height, avoiding: emphases)
        }
        // An install's essential phase goes over the install it belongs to.
        for span in row.spans where span.style == .emphasis {
            draw(span, of: row.kind, into: &svg, axis: axis, top: top + 4, height: height - 8)
        }
        for moment in row.moments { draw(moment, of: row.kind, into: &svg, axis: axis, top: top, height: height) }
        svg.close("g")
        y += height + 6
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
                      top: Double, height: Double, avoiding covered: [(Double, Double)] = []) {
        let x0 = axis.x(span.start)
        let x1 = max(axis.x(span.end), x0 + 2)
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
        // The label inside, where the span has room for it that nothing drawn over it covers.
        let text = span.style == .emphasis ? span.label : shortLabel(span, kind: kind)
        let needed = Double(text.count) * 6 + 8
        guard span.style != .secondary || kind == .exclusiveControl,
              let left = Self.room(for: needed, from: x0, to: x1, avoiding: covered)
        else { return }
        let colour = kind == .install && span.style != .emphasis ? TimelineStyle.ink : "#FFFFFF"
        svg.text(text, [("x", n(left + 4)), ("y", n(top + height / 2 + 3.5)), ("class", "inside"), ("style", "fill:\(colour)")])
    }

    /// The left end of the first stretch of `x0...x1` at least `width` wide that no covered range overlaps.
    static func room(for width: Double, from x0: Double, to x1: Double, avoiding covered: [(Double, Double)]) -> Double? {
        var left = x0
        for (start, end) in covered.sorted(by: { $0.0 < $1.0 }) where end > left && start < x1 {
            if start - left >= width { return left }
            left = max(left, end)
        }
        return x1 - left >= width ? left : nil
    }

    private func shortLabel(_ span: ActivityRow.Span, kind: ActivityRow.Kind) -> String {
        switch kind {
        case .extension, .app: span.label
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
