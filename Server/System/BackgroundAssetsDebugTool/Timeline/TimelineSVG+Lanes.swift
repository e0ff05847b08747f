/*
Abstract:
Draws the downloads: a lane each with bytes over time and marks, or thin bars when there are many.
*/

import Foundation

extension TimelineSVG {
    func drawLanes(into svg: inout SVGDocument, axis: TimelineAxis, y: inout Double) {
        let lanes = timeline.lanes
        guard !lanes.isEmpty else { return }
        let layout = Self.laneLayout(for: lanes.count)
        y += 6
        let rows = stride(from: 0, to: lanes.count, by: layout.downloadsPerRow).map {
            Array(lanes[$0..<min($0 + layout.downloadsPerRow, lanes.count)])
        }
        let heading = layout.downloadsPerRow > 1
            ? "Downloads (\(lanes.count), \(layout.downloadsPerRow) per row)" : "Downloads (\(lanes.count))"
        svg.text(heading, [("x", n(TimelineStyle.labelX)), ("y", n(y + 12)), ("class", "section")])
        y += 20
        let showsApps = Set(lanes.map(\.app)).count > 1
        for (index, row) in rows.enumerated() {
            if layout.isFull, index % 2 == 1 {
                svg.element("rect", [("x", n(TimelineStyle.labelX - 6)), ("y", n(y - layout.gap / 2)),
                                     ("width", n(TimelineStyle.width - TimelineStyle.labelX)), ("height", n(layout.height + layout.gap)),
                                     ("fill", TimelineStyle.stripe)])
                // The stripe would hide the folds' shading beneath it; each fold shows through it again.
                for fold in axis.folds {
                    svg.element("rect", [("x", n(fold.x0)), ("y", n(y - layout.gap / 2)),
                                         ("width", n(fold.x1 - fold.x0)), ("height", n(layout.height + layout.gap)),
                                         ("fill", TimelineStyle.foldOnStripe)])
                }
            }
            if layout.isFull, let lane = row.first {
                drawFullLane(lane, showingApp: showsApps, into: &svg, axis: axis, top: y, height: layout.height)
            } else {
                drawThinRow(row, index: index, layout: layout, into: &svg, axis: axis, top: y)
            }
            y += layout.height + layout.gap
        }
    }

    // MARK: - A full lane

    private func drawFullLane(_ lane: DownloadLane, showingApp: Bool, into svg: inout SVGDocument, axis: TimelineAxis,
                              top: Double, height: Double) {
        // The bytes reached ride on the lane, so a reader of the document (the live view's test) can
        // tell a lane filled without measuring polygons.
        svg.open("g", [("class", "lane"), ("data-download", lane.download), ("data-app", lane.app),
                       ("data-bytes", String(lane.bytesReached))])
        svg.title(summary(of: lane))
        let middle = top + height / 2
        let size = lane.expected.map(TimelineStyle.bytes) ?? ""
        let labelWidth = TimelineStyle.plotX - TimelineStyle.labelX - 12 - Double(size.count) * 6
        let name = showingApp ? "\(lane.download) · \(lane.app.split(separator: ".").last ?? "")" : lane.download
        svg.text(TimelineStyle.fitted(name, width: labelWidth),
                 [("x", n(TimelineStyle.labelX)), ("y", n(middle + 4)), ("class", "label")])
        svg.text(size, [("x", n(TimelineStyle.plotX - 10)), ("y", n(middle + 4)), ("class", "small"),
                        ("text-anchor", "end")])

        // Queued until the first run, and waiting between runs.
        var waitingFrom = lane.queuedAt
        for run in lane.runs {
            if let from = waitingFrom {
                Marks.waiting(&svg, from: axis.x(from), to: axis.x(run.start), y: middle, title: "waiting")
            }
            drawRun(run, lane: lane, into: &svg, axis: axis, top: top, height: height)
            waitingFrom = run.end
        }
        if let from = waitingFrom, lane.outcome == .waiting, let last = lane.lastTime, last > from {
            Marks.waiting(&svg, from: axis.x(from), to: axis.x(last), y: middle, title: "waiting")
        }
        for placed in markPlacements(of: lane, axis: axis) {
            draw(placed.marked, atX: placed.x, into: &svg, top: top, height: height)
        }
        svg.close("g")
    }

    /// The lane's marks with the middle each is drawn at, spread so that none covers another.
    func markPlacements(of lane: DownloadLane, axis: TimelineAxis)
        -> [(marked: DownloadLane.Marked, item: MarkLayout.Item, x: Double)] {
        let items = lane.marks.map { MarkLayout.item(for: $0.mark, at: axis.x($0.time)) }
        return zip(lane.marks, zip(items, MarkLayout.spread(items))).map { ($0, $1.0, $1.1) }
    }

    /// One run: a tinted band for the time it ran, and its bytes over time as an area from the bottom.
    private func drawRun(_ run: DownloadLane.Run, lane: DownloadLane, into svg: inout SVGDocument, axis: TimelineAxis,
                         top: Double, height: Double) {
        let colour = TimelineStyle.colour(essential: run.essential, foreground: run.foreground)
        let x0 = axis.x(run.start)
        let x1 = max(axis.x(run.end), x0 + 1.5)
        let mode = run.essential ? "essential" : run.foreground ? "foreground" : "background"
        let written = run.samples.last?.written ?? 0
        let duration = run.end.timeIntervalSince(run.start)
        var title = "\(lane.download): \(mode), \(TimelineStyle.timeOfDay(run.start, milliseconds: true)) to "
            + "\(TimelineStyle.timeOfDay(run.end, milliseconds: true)), \(TimelineStyle.bytes(written))"
        if let expected = lane.expected { title += " of \(TimelineStyle.bytes(expected))" }
        if let first = run.samples.first?.written, duration > 0.05, written > first {
            title += ", \(TimelineStyle.rate(Double(written - first) / duration))"
        }
        svg.element("rect", [("x", n(x0)), ("y", n(top)), ("width", n(x1 - x0)), ("height", n(height)), ("fill", colour),
                             ("fill-opacity", "0.16")], title: title)
        guard let expected = lane.expected, expected > 0 else { return }
        let bottom = top + height
        var points = ["\(n(x0)),\(n(bottom))"]
        for sample in run.samples {
            let fraction = min(1, max(0, Double(sample.written) / Double(expected)))
            points.append("\(n(min(axis.x(sample.time), x1))),\(n(bottom - fraction * height))")
        }
        points.append("\(n(x1)),\(n(bottom - min(1, Double(written) / Double(expected)) * height))")
        points.append("\(n(x1)),\(n(bottom))")
        svg.element("polygon", [("points", points.joined(separator: " ")), ("fill", colour), ("fill-opacity", "0.9")],
                    title: title)
    }

    /// Draws a mark with its middle at `x`, as ``MarkLayout`` placed it.
    private func draw(_ marked: DownloadLane.Marked, atX x: Double, into svg: inout SVGDocument, top: Double, height: Double) {
        let middle = top + height / 2
        let time = TimelineStyle.timeOfDay(marked.time, milliseconds: true)
        switch marked.mark {
        case let .queued(foreground):
            Marks.tick(&svg, x: x, top: top + 4, height: height - 8, colour: TimelineStyle.faint,
                       title: "\(time) \(foreground ? "started in the foreground" : "scheduled")")
        case .promoted:
            Marks.promoted(&svg, x: x, y: top + 8, title: "\(time) promoted to the foreground")
        case let .retry(reason):
            Marks.retry(&svg, x: x, y: middle, title: "\(time) stopped to retry: \(reason)")
        case .restarted:
            Marks.tick(&svg, x: x, top: top, height: height, colour: TimelineStyle.problem, title: "\(time) started over from zero")
        case .challenge:
            Marks.trigger(&svg, x: x, y: middle, colour: TimelineStyle.periodic, title: "\(time) the server asked for credentials")
        case .finished:
            // The check's path is half a pixel right of its middle.
            Marks.finished(&svg, x: x - 0.5, y: middle, title: "\(time) finished: the file was handed over")
        case let .failed(reason):
            Marks.failed(&svg, x: x, y: middle, title: "\(time) failed: \(reason)")
        case .cancelled:
            Marks.failed(&svg, x: x, y: middle, title: "\(time) cancelled")
        }
    }

    /// The lane's tooltip: the download, its size, priority, and how it ended.
    func summary(of lane: DownloadLane) -> String {
        var parts = ["\(lane.download) of \(lane.app)"]
        if let expected = lane.expected { parts.append(TimelineStyle.bytes(expected)) }
        if lane.essential { parts.append("essential") }
        if let priority = lane.priority { parts.append("priority \(priority)") }
        if lane.wasPromoted { parts.append("promoted") }
        let retries = lane.marks.filter { if case .retry = $0.mark { true } else { false } }.count
        if retries > 0 { parts.append("\(retries) retr\(retries == 1 ? "y" : "ies")") }
        parts.append("\(lane.runs.count) run\(lane.runs.count == 1 ? "" : "s")")
        parts.append({
            switch lane.outcome {
            case .finished: "finished"
            case .failed: "failed"
            case .cancelled: "cancelled"
            case .transferring: "still transferring when the trace ends"
            case .waiting: "waiting when the trace ends"
            }
        }())
        return parts.joined(separator: ", ")
    }

    // MARK: - Thin rows, for many downloads

    private func drawThinRow(_ lanes: [DownloadLane], index: Int, layout: LaneLayout, into svg: inout SVGDocument,
                             axis: TimelineAxis, top: Double) {
        let shared = lanes.count > 1
        let opacity = shared ? max(0.2, 1 / Double(lanes.count)) : 1
        if shared {
            svg.open("g", [("class", "lane-group"), ("data-downloads", lanes.map(\.download).joined(separator: " "))])
            svg.title("\(lanes.first?.download ?? "") to \(lanes.last?.download ?? ""): \(lanes.count) downloads")
        }
        // Every tenth row is numbered, so a reader can count.
        let rowsPerLabel = 10
        if index % rowsPerLabel == 0 {
            let first = index * layout.downloadsPerRow + 1
            let last = min(first + layout.downloadsPerRow * rowsPerLabel - 1, timeline.lanes.count)
            svg.text("\(first)–\(last)", [("x", n(TimelineStyle.plotX - 10)), ("y", n(top + 8)), ("class", "small"),
                                            ("text-anchor", "end")])
        }
        for lane in lanes {
            if !shared {
                svg.open("g", [("class", "lane"), ("data-download", lane.download), ("data-app", lane.app)])
                svg.title(summary(of: lane))
            }
            for run in lane.runs {
                let x0 = axis.x(run.start)
                svg.element("rect", [
                    ("x", n(x0)), ("y", n(top)), ("width", n(max(axis.x(run.end) - x0, 1))), ("height", n(layout.height)),
                    ("fill", TimelineStyle.colour(essential: run.essential, foreground: run.foreground)), ("fill-opacity", n(opacity)),
                ])
            }
            if lane.outcome == .failed, let end = lane.lastTime {
                svg.element("rect", [("x", n(axis.x(end))), ("y", n(top - 1)), ("width", "3"), ("height", n(layout.height + 2)),
                                     ("fill", TimelineStyle.problem)])
            }
            if !shared { svg.close("g") }
        }
        if shared { svg.close("g") }
    }
}
