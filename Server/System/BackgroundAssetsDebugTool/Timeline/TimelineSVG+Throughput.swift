/*
Abstract:
Draws the transfer rate of all downloads together over time, stacked by essential, foreground and background.
*/

import Foundation

extension TimelineSVG {
    /// The height of the transfer-rate chart.
    static let throughputHeight = 70.0
    /// The width of one column of the chart.
    static let bucketWidth = 3.0

    /// The rate of each kind of transfer in each column of the chart, in bytes per second.
    struct Throughput {
        var essential: [Double]
        var foreground: [Double]
        var background: [Double]

        var peak: Double {
            zip(essential, zip(foreground, background)).map { $0 + $1.0 + $1.1 }.max() ?? 0
        }
    }

    /// Spreads each pair of consecutive samples' rate over the columns their times cover.
    func throughput(axis: TimelineAxis) -> Throughput {
        let columns = Int((TimelineStyle.plotWidth / Self.bucketWidth).rounded(.up)) + 1
        var result = Throughput(essential: Array(repeating: 0, count: columns),
                                foreground: Array(repeating: 0, count: columns),
                                background: Array(repeating: 0, count: columns))
        for lane in timeline.lanes {
            for run in lane.runs {
                for (from, to) in zip(run.samples, run.samples.dropFirst()) {
                    let seconds = to.time.timeIntervalSince(from.time)
                    let bytes = Double(to.written - from.written)
                    guard seconds > 0, bytes > 0 else { continue }
                    let rate = bytes / seconds
                    let x0 = axis.x(from.time) - TimelineStyle.plotX
                    let x1 = axis.x(to.time) - TimelineStyle.plotX
                    guard x1 > x0 else { continue }
                    for column in max(0, Int(x0 / Self.bucketWidth))...min(columns - 1, Int(x1 / Self.bucketWidth)) {
                        let left = Double(column) * Self.bucketWidth
                        let overlap = min(x1, left + Self.bucketWidth) - max(x0, left)
                        guard overlap > 0 else { continue }
                        let share = rate * overlap / Self.bucketWidth
                        if run.essential {
                            result.essential[column] += share
                        } else if run.foreground {
                            result.foreground[column] += share
                        } else {
                            result.background[column] += share
                        }
                    }
                }
            }
        }
        return result
    }

    /// How a rate maps to a height: linear, or logarithmic when the rates span more than two
    /// decades (a loopback foreground transfer at 1 GB/s beside background ones throttled to 8 MB/s).
    struct RateScale {
        let peak: Double
        let floor: Double?

        /// The rates a logarithmic scale draws a grid line at: 1, 10 and 100 bytes, KiB, MiB, GiB and
        /// TiB a second. Rates are shown in binary units, where powers of ten read `976.6 KiB/s`.
        static let roundRates: [Double] = (0..<5).flatMap { power in
            [1.0, 10, 100].map { $0 * pow(1024, Double(power)) }
        }

        init(peak: Double, smallest: Double) {
            self.peak = peak
            guard peak > 0, smallest > 0, peak / smallest > 100 else {
                floor = nil
                return
            }
            // Below a byte a second no round rate is left: a power of ten stands in.
            floor = Self.roundRates.last { $0 <= smallest } ?? pow(10, log10(smallest).rounded(.down))
        }

        /// The part of the chart's height a rate reaches, from 0 to 1.
        func fraction(_ rate: Double) -> Double {
            guard peak > 0, rate > 0 else { return 0 }
            guard let floor else { return min(1, rate / peak) }
            return rate <= floor ? 0 : min(1, log10(rate / floor) / log10(peak / floor))
        }

        /// The rates worth a grid line and a label: the round rates above the floor and below the
        /// peak for a logarithmic scale, else the peak's half.
        var gridLines: [Double] {
            guard let floor else { return peak > 0 ? [peak / 2] : [] }
            return Self.roundRates.filter { $0 > floor && $0 < peak }
        }

        /// A grid line's label: `10 KiB/s` for a round rate, as ``TimelineStyle/rate(_:)`` otherwise.
        static func label(_ rate: Double) -> String {
            guard let index = roundRates.firstIndex(of: rate) else { return TimelineStyle.rate(rate) }
            let count = Int(rate / pow(1024, Double(index / 3)))
            let unit = ["byte", "KiB", "MiB", "GiB", "TiB"][index / 3]
            return unit == "byte" ? "\(count) \(count == 1 ? "byte" : "bytes")/s" : "\(count) \(unit)/s"
        }
    }

    func drawThroughput(into svg: inout SVGDocument, axis: TimelineAxis, y: inout Double) {
        guard !timeline.lanes.isEmpty else { return }
        let chart = throughput(axis: axis)
        let totals = zip(chart.essential, zip(chart.foreground, chart.background)).map { $0 + $1.0 + $1.1 }
        let scale = RateScale(peak: chart.peak, smallest: totals.filter { $0 > 0 }.min() ?? 0)
        let top = y + 4
        let height = Self.throughputHeight
        let bottom = top + height
        let right = TimelineStyle.plotX + TimelineStyle.plotWidth
        svg.open("g", [("class", "throughput")])
        svg.text("Transfer rate", [("x", n(TimelineStyle.labelX)), ("y", n(top + 12)), ("class", "label")])
        svg.text(scale.peak > 0 ? "peak \(TimelineStyle.rate(scale.peak))" : "no bytes moved",
                 [("x", n(TimelineStyle.labelX)), ("y", n(top + 26)), ("class", "small")])
        if scale.floor != nil {
            svg.text("logarithmic scale", [("x", n(TimelineStyle.labelX)), ("y", n(top + 39)), ("class", "small")])
        }
        for rate in scale.gridLines {
            let lineY = bottom - scale.fraction(rate) * height
            svg.element("line", [("x1", n(TimelineStyle.plotX)), ("y1", n(lineY)), ("x2", n(right)), ("y2", n(lineY)),
                                 ("stroke", TimelineStyle.grid), ("stroke-dasharray", "2 3")])
            svg.text(RateScale.label(rate), [("x", n(TimelineStyle.plotX - 8)), ("y", n(lineY + 3.5)),
                                              ("class", "tick"), ("text-anchor", "end")])
        }
        svg.element("line", [("x1", n(TimelineStyle.plotX)), ("y1", n(bottom)), ("x2", n(right)),
                             ("y2", n(bottom)), ("stroke", TimelineStyle.faint)])
        if scale.peak > 0 {
            // Stacked from the bottom: essential, foreground, background.
            var base = Array(repeating: 0.0, count: chart.essential.count)
            for (values, colour) in [(chart.essential, TimelineStyle.essential), (chart.foreground, TimelineStyle.foreground),
                                     (chart.background, TimelineStyle.background)] {
                guard values.contains(where: { $0 > 0 }) else { continue }
                let tops = zip(base, values).map { $0 + $1 }
                var points: [String] = []
                for (column, value) in tops.enumerated() {
                    let x = TimelineStyle.plotX + Double(column) * Self.bucketWidth
                    points.append("\(n(x)),\(n(bottom - scale.fraction(value) * height))")
                }
                for (column, value) in base.enumerated().reversed() {
                    let x = TimelineStyle.plotX + Double(column) * Self.bucketWidth
                    points.append("\(n(x)),\(n(bottom - scale.fraction(value) * height))")
                }
                svg.element("polygon", [("points", points.joined(separator: " ")), ("fill", colour), ("fill-opacity", "0.85")])
                base = tops
            }
        }
        svg.close("g")
        y = bottom + 8
    }
}
