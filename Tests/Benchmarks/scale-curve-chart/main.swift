/*
Abstract:
Draws scale-curve.sh's figures as an SVG: the time per session of the service and of curl, and the service's peak memory.
*/

// Built by scale-curve.sh together with the debug tool's SVGDocument.swift (`swiftc` on the two files),
// so the curve is drawn by the same writer as the timelines without another target in Package.swift.
// Reads the summary CSV on standard input and writes the SVG on standard output.

import Foundation

/// One line of the summary: the medians at one number of sessions.
struct Point {
    var sessions: Double
    var serviceMilliseconds: Double
    var curlMilliseconds: Double
    var peakMebibytes: Double
    /// The CPU time per session of each side, when the figures have it.
    var serviceCPUMilliseconds: Double?
    var curlCPUMilliseconds: Double?
    /// curl's time per session with its files synced afterwards, when the figures have it.
    var curlSyncedMilliseconds: Double?
}

/// One panel of the chart: a logarithmic horizontal axis of sessions and a linear vertical one.
struct Panel {
    var left: Double
    var top: Double
    var width: Double
    var height: Double
    var sessions: ClosedRange<Double>
    var maximum: Double

    func x(_ sessions: Double) -> Double {
        let span = log10(self.sessions.upperBound) - log10(self.sessions.lowerBound)
        let fraction = span > 0 ? (log10(sessions) - log10(self.sessions.lowerBound)) / span : 0.5
        return left + fraction * width
    }

    func y(_ value: Double) -> Double {
        top + height - (maximum > 0 ? value / maximum : 0) * height
    }
}

func readPoints() -> [Point] {
    var points: [Point] = []
    while let line = readLine() {
        let fields = line.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        // The header, and any line that is not numbers, is skipped: the chart draws what it can read.
        guard fields.count >= 5, let sessions = fields[0], let service = fields[1], let curl = fields[2],
              let peak = fields[4], sessions > 0
        else { continue }
        let cpu = fields.count >= 10 ? (fields[8], fields[9]) : (nil, nil)
        let synced = fields.count >= 12 ? fields[11] : nil
        points.append(Point(sessions: sessions, serviceMilliseconds: service, curlMilliseconds: curl, peakMebibytes: peak,
                            serviceCPUMilliseconds: cpu.0, curlCPUMilliseconds: cpu.1, curlSyncedMilliseconds: synced))
    }
    return points.sorted { $0.sessions < $1.sessions }
}

/// A round number at or above `value`, so the vertical axis ends on a gridline.
func niceCeiling(_ value: Double) -> Double {
    guard value > 0 else { return 1 }
    let magnitude = pow(10, floor(log10(value)))
    for step in [1.0, 2, 2.5, 5, 10] where step * magnitude >= value { return step * magnitude }
    return 10 * magnitude
}

func sessionsText(_ sessions: Double) -> String {
    sessions >= 1000 && sessions.truncatingRemainder(dividingBy: 1000) == 0
        ? "\(Int(sessions / 1000))k" : "\(Int(sessions))"
}

func valueText(_ value: Double) -> String {
    value >= 10 || value == value.rounded() ? String(Int(value.rounded())) : String(format: "%.1f", value)
}

func draw(_ panel: Panel, title: String, unit: String, lines: [(name: String, cssClass: String, values: [Double])],
          sessions: [Double], into svg: inout SVGDocument, grid: inout SVGDocument) {
    svg.text(title, [("x", SVGDocument.number(panel.left)), ("y", SVGDocument.number(panel.top - 12)), ("class", "title")])
    for step in 0...5 {
        let value = panel.maximum * Double(step) / 5
        let y = panel.y(value)
        grid.element("line", [("x1", SVGDocument.number(panel.left)), ("x2", SVGDocument.number(panel.left + panel.width)),
                              ("y1", SVGDocument.number(y)), ("y2", SVGDocument.number(y)), ("class", "grid")])
        svg.text(valueText(value), [("x", SVGDocument.number(panel.left - 6)), ("y", SVGDocument.number(y + 4)),
                                    ("class", "tick"), ("text-anchor", "end")])
    }
    for count in sessions {
        svg.text(sessionsText(count), [("x", SVGDocument.number(panel.x(count))),
                                       ("y", SVGDocument.number(panel.top + panel.height + 16)),
                                       ("class", "tick"), ("text-anchor", "middle")])
    }
    svg.text("sessions (log scale); \(unit)", [("x", SVGDocument.number(panel.left + panel.width / 2)),
                                                ("y", SVGDocument.number(panel.top + panel.height + 34)),
                                                ("class", "axis"), ("text-anchor", "middle")])
    for (index, line) in lines.enumerated() {
        let coordinates = zip(sessions, line.values).map { "\(SVGDocument.number(panel.x($0))),\(SVGDocument.number(panel.y($1)))" }
        svg.element("polyline", [("points", coordinates.joined(separator: " ")), ("class", line.cssClass)])
        for (count, value) in zip(sessions, line.values) {
            svg.element("circle", [("cx", SVGDocument.number(panel.x(count))), ("cy", SVGDocument.number(panel.y(value))),
                                   ("r", "3.5"), ("class", line.cssClass + " dot")],
                        title: "\(line.name) at \(sessionsText(count)): \(valueText(value)) \(unit)")
        }
        // Under the axis, where no point can hide it.
        let legendY = panel.top + panel.height + 58 + Double(index) * 16
        svg.element("line", [("x1", SVGDocument.number(panel.left + 10)), ("x2", SVGDocument.number(panel.left + 30)),
                             ("y1", SVGDocument.number(legendY - 4)), ("y2", SVGDocument.number(legendY - 4)),
                             ("class", line.cssClass)])
        svg.text(line.name, [("x", SVGDocument.number(panel.left + 36)), ("y", SVGDocument.number(legendY)), ("class", "legend")])
    }
}

let points = readPoints()
guard !points.isEmpty else {
    FileHandle.standardError.write(Data("scale-curve-chart: no figures on standard input\n".utf8))
    exit(1)
}
let sessions = points.map(\.sessions)
let range = (sessions.first ?? 1)...(sessions.last ?? 1)
// Half a decade of margin on each side, so the first and last points do not sit on the frame.
let padded = (range.lowerBound / 1.6)...(range.upperBound * 1.6)
let goal = points.map { $0.curlMilliseconds * 2.5 }
let serviceCPU = points.compactMap(\.serviceCPUMilliseconds)
let curlCPU = points.compactMap(\.curlCPUMilliseconds)
let curlSynced = points.compactMap(\.curlSyncedMilliseconds)
// CPU and synced lines only when every count has them, so a line never skips a count.
let hasCPU = serviceCPU.count == points.count && curlCPU.count == points.count
let hasSynced = curlSynced.count == points.count
let timeMaximum = niceCeiling(
    (points.flatMap { [$0.serviceMilliseconds, $0.curlMilliseconds] } + goal + serviceCPU + curlCPU + curlSynced).max() ?? 1)
let memoryGoal = points.map { $0.sessions > 10_000 ? 128.0 : 64.0 }
let memoryMaximum = niceCeiling((points.map(\.peakMebibytes) + memoryGoal).max() ?? 1)

var svg = SVGDocument()
var grid = SVGDocument()
let time = Panel(left: 60, top: 40, width: 380, height: 240, sessions: padded, maximum: timeMaximum)
draw(time, title: "Time per session, milliseconds (median)", unit: "ms",
     lines: [("service (install + app until verified)", "service", points.map(\.serviceMilliseconds)),
             ("curl, one process", "curl", points.map(\.curlMilliseconds))]
        + (hasSynced ? [("curl, then its files synced (the service syncs each)", "curl synced", curlSynced)] : [])
        + [("goal: 2.5x curl", "goal", goal)]
        + (hasCPU ? [("CPU: service, extension, tool and app", "service cpu", serviceCPU),
                     ("CPU: curl", "curl cpu", curlCPU)] : []),
     sessions: sessions, into: &svg, grid: &grid)
let memory = Panel(left: 540, top: 40, width: 300, height: 240, sessions: padded, maximum: memoryMaximum)
draw(memory, title: "Service peak memory (VmHWM), MiB", unit: "MiB",
     lines: [("service", "service", points.map(\.peakMebibytes)),
             ("goal: 64 MiB to 10k, 128 MiB above", "goal", memoryGoal)],
     sessions: sessions, into: &svg, grid: &grid)

let style = """
    .title { font-size: 14px; font-weight: bold; fill: #222; } .tick { font-size: 11px; fill: #555; } \
    .axis { font-size: 12px; fill: #333; } .legend { font-size: 11px; fill: #333; } \
    .grid { stroke: #E3E3E3; stroke-width: 1; } polyline { fill: none; stroke-width: 2; } \
    .service { stroke: #0A64D6; } .curl { stroke: #E07A00; } .goal { stroke: #8A8A8A; stroke-dasharray: 5 4; } \
    .cpu { stroke-width: 1.5; stroke-dasharray: 2 3; } .synced { stroke: #B35900; stroke-dasharray: 8 3; } \
    .dot { stroke-width: 0; } .service.dot { fill: #0A64D6; } .curl.dot { fill: #E07A00; } .goal.dot { fill: #8A8A8A; }
    """
print(svg.document(over: grid, width: 880, height: 440, style: style), terminator: "")
