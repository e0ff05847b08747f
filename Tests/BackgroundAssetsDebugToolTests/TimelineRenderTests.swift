/*
Abstract:
The timeline drawn by a real renderer, librsvg: the lanes and the rate chart are on the pixels, in their colours.
*/

import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Render the timeline with librsvg")
struct TimelineRenderTests {
    /// Whether the test runs: with the renderer installed, or always under `.ci/run`, which installs it.
    static let runs = RenderedImage.isAvailable || ProcessInfo.processInfo.environment["BA_REQUIRE_RENDERER"] == "1"

    @Test("Each lane's bytes are drawn in its colour where its run ends, and the page around them stays white",
          .enabled(if: runs, "needs rsvg-convert and pngtopnm (apt-get install librsvg2-bin netpbm)"))
    func lanesAreOnThePixels() async throws {
        var script = TraceScript()
        // Three downloads side by side: essential, background, and one promoted to the foreground.
        let kinds: [(id: String, essential: Bool, promoted: Bool)] = [("essential", true, false), ("background", false, false),
                                                                        ("promoted", false, true)]
        for (index, kind) in kinds.enumerated() {
            let offset = Double(index)
            script.at(offset, "downloadDidBegin", download: kind.id, transfer: TraceScript.transfer(0, essential: kind.essential))
            script.at(offset + 1, TraceEntry.progressEvent, download: kind.id,
                      transfer: TraceScript.transfer(400_000, essential: kind.essential))
            var foreground = false
            if kind.promoted {
                script.at(offset + 2, "startForegroundDownload", from: "app", to: "backgroundassetsd", download: kind.id, detail: "promoted")
                script.at(offset + 2, "downloadDidPause", to: "app", download: kind.id, transfer: TraceScript.transfer(500_000, foreground: true))
                script.at(offset + 2.01, "downloadDidBegin", to: "app", download: kind.id, transfer: TraceScript.transfer(500_000, foreground: true))
                foreground = true
            }
            script.at(offset + 4, "finishedWithFileURL", download: kind.id,
                      transfer: TraceScript.transfer(1_000_000, foreground: foreground, essential: kind.essential))
        }
        let timeline = Timeline(entries: script.entries)
        let svg = TimelineSVG(timeline: timeline, caption: "render test").render()

        try await withTemporaryDirectory(prefix: "timeline") { folder in
            let file = folder.appendingPathComponent("timeline.svg")
            try Data(svg.utf8).write(to: file)
            let image = try await RenderedImage(rendering: file)
            #expect(image.width == Int(TimelineStyle.width))

            // Where each lane's last run ends, its area reaches the top: the pixel just inside, halfway
            // up, is the run's colour, drawn at 90% over the page.
            let areas = Self.laneAreas(in: svg)
            #expect(areas.count == kinds.count, "\(areas)")
            for (kind, area) in zip(kinds, areas) {
                let colour = TimelineStyle.colour(essential: kind.essential, foreground: kind.promoted)
                let expected = try #require(RenderedImage.Colour(hex: colour))
                let (x, y) = (Int(area.right) - 2, Int(area.middle))
                let pixel = try #require(image.colour(x: x, y: y))
                #expect(pixel.distance(to: expected) < 40, "\(kind.id) at (\(x), \(y)) is \(pixel), not \(colour)")
            }
            // Left of every run, in the plot but before anything happened to the last lane, the page is blank.
            if let last = areas.last, let blank = image.colour(x: Int(TimelineStyle.plotX) + 8, y: Int(last.middle)) {
                #expect(blank.isNearlyWhite, "the last lane before its download began is \(blank)")
            }
            // The rate chart has coloured pixels somewhere along its width.
            let chartTop = Self.chartBottom(in: svg) - 6
            let coloured = stride(from: Int(TimelineStyle.plotX), to: Int(TimelineStyle.width) - 24, by: 2).contains {
                image.colour(x: $0, y: Int(chartTop)).map { !$0.isNearlyWhite } ?? false
            }
            #expect(coloured, "the transfer-rate chart is blank")
        }
    }

    /// Each lane's area polygon of its last run: its right edge and vertical middle, read from the SVG.
    static func laneAreas(in svg: String) -> [(right: Double, middle: Double)] {
        svg.components(separatedBy: "<g class=\"lane\"").dropFirst().compactMap { lane in
            let group = lane.components(separatedBy: "</g>").first ?? ""
            guard let polygon = group.components(separatedBy: "<polygon points=\"").last?.split(separator: "\"").first,
                  group.contains("<polygon")
            else { return nil }
            let points = polygon.split(separator: " ").compactMap { pair -> (Double, Double)? in
                let parts = pair.split(separator: ",").compactMap { Double($0) }
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            }
            guard let right = points.map(\.0).max(), let top = points.map(\.1).min(), let bottom = points.map(\.1).max()
            else { return nil }
            return (right, (top + bottom) / 2)
        }
    }

    /// The y of the rate chart's base line, read from the SVG.
    static func chartBottom(in svg: String) -> Double {
        let chart = svg.components(separatedBy: "<g class=\"throughput\">").last ?? ""
        let line = chart.components(separatedBy: "stroke=\"\(TimelineStyle.faint)\"").first ?? ""
        let y = line.components(separatedBy: "y1=\"").last?.split(separator: "\"").first
        return y.flatMap { Double($0) } ?? 0
    }
}
