/*
Abstract:
The timeline as a web page: the picture, and a table of every download under it.
*/

import Foundation

/// A self-contained HTML page: the timeline's SVG inline, then one table row per download with its
/// size, when it ran, its average rate and how it ended, for reading what the picture shows.
struct TimelineHTML {
    let timeline: Timeline
    let caption: String

    func render() -> String {
        let picture = TimelineSVG(timeline: timeline, caption: caption).render()
        // Inline SVG needs no XML declaration.
        let svg = picture.drop { $0 != "\n" }.dropFirst()
        let subject = timeline.subject
        var rows = ""
        for lane in timeline.lanes {
            let start = lane.runs.first?.start
            let end = lane.runs.last?.end
            let running = lane.runs.reduce(0.0) { $0 + $1.end.timeIntervalSince($1.start) }
            let moved = lane.runs.reduce(Int64(0)) { total, run in
                total + max(0, (run.samples.last?.written ?? 0) - (run.samples.first?.written ?? 0))
            }
            let cells: [String] = [
                lane.download, lane.app, lane.expected.map(TimelineStyle.bytes) ?? "",
                lane.essential ? "yes" : "", lane.priority.map(String.init) ?? "", lane.wasPromoted ? "yes" : "",
                start.map { TimelineStyle.timeOfDay($0, milliseconds: true) } ?? "",
                end.map { TimelineStyle.timeOfDay($0, milliseconds: true) } ?? "",
                String(lane.runs.count), running > 0.05 ? TimelineStyle.rate(Double(moved) / running) : "",
                outcome(of: lane),
            ]
            rows += "<tr>" + cells.map { "<td>\(SVGDocument.escape($0))</td>" }.joined() + "</tr>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>Timeline of \(SVGDocument.escape(subject))</title>
            <style>
            body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:24px;color:#1F2933}
            table{border-collapse:collapse;font-size:13px;margin-top:16px}
            th,td{padding:4px 10px;border-bottom:1px solid #E4E7EB;text-align:left}
            th{background:#F5F7FA}
            svg{max-width:100%;height:auto}
            </style>
            </head>
            <body>
            \(svg)
            <table>
            <tr><th>Download</th><th>App</th><th>Size</th><th>Essential</th><th>Priority</th><th>Promoted</th>\
            <th>First run (UTC)</th><th>Last run ended</th><th>Runs</th><th>Average rate</th><th>Outcome</th></tr>
            \(rows)</table>
            </body>
            </html>

            """
    }

    private func outcome(of lane: DownloadLane) -> String {
        let failure = lane.marks.reversed().compactMap { if case let .failed(reason) = $0.mark { reason } else { nil } }.first
        switch lane.outcome {
        case .finished: return "finished"
        case .failed: return "failed: \(failure ?? "")"
        case .cancelled: return "cancelled"
        case .transferring: return "transferring"
        case .waiting: return "waiting"
        }
    }
}
