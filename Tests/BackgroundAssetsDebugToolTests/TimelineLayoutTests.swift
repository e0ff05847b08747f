/*
Abstract:
Tests of the timeline's layout rules: folds of quiet stretches, marks that never cover each other,
labels that are whole or absent, a title that counts the lanes.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Lay the timeline out so that it reads at a glance")
struct TimelineLayoutTests {
    typealias Script = TraceScript

    /// An essential download that fills for `steady` seconds with nothing else happening, then a
    /// launch that promotes three downloads within a second.
    static func longEssentialThenPromotion(steady: Double) -> TraceScript {
        var script = Script()
        script.at(0, "install", from: "tool", to: "backgroundassetsd", detail: "version 1")
        script.at(0.1, "extensionLaunched", to: "extension", detail: "pid 100")
        script.at(0.2, "scheduleReturnedDownloads", to: "backgroundassetsd", detail: "4 scheduled, 0 refused")
        script.at(0.3, "extensionExited", from: "extension", to: "backgroundassetsd", detail: "exited with status 0")
        script.at(0.3, "downloadDidBegin", download: "essential", transfer: Script.transfer(0, essential: true))
        var second = 1.0
        while second < steady {
            script.at(second, TraceEntry.progressEvent, download: "essential",
                      transfer: Script.transfer(Int64(second / steady * 900_000), essential: true))
            second += 1
        }
        let end = steady + 0.3
        script.at(end, "finishedWithFileURL", to: "backgroundassetsd", download: "essential",
                  transfer: Script.transfer(1_000_000, essential: true))
        script.at(end + 0.01, "appLaunchable", to: "backgroundassetsd")
        script.at(end + 0.1, "connected", from: "app", to: "backgroundassetsd", detail: "pid 200")
        for (index, id) in ["a", "b", "c"].enumerated() {
            let at = end + 0.2 + Double(index) * 0.05
            script.at(at, "downloadDidBegin", download: id, transfer: Script.transfer(0))
            script.at(at + 0.1, "startForegroundDownload", from: "app", to: "backgroundassetsd", download: id,
                      detail: "promoted")
            script.at(at + 0.1, "downloadDidPause", to: "app", download: id, transfer: Script.transfer(100_000))
            script.at(at + 0.11, "downloadDidBegin", to: "app", download: id,
                      transfer: Script.transfer(100_000, foreground: true))
            // The last one finishes a moment after its promotion: its check mark and triangle meet.
            let finish = id == "c" ? at + 0.115 : at + 0.6
            script.at(finish, "finishedWithFileURL", to: "app", download: id,
                      transfer: Script.transfer(1_000_000, foreground: true))
        }
        return script
    }

    @Test("A stretch of steady download longer than the threshold is folded, and its label says how long")
    func longSteadyStretchIsFolded() throws {
        let timeline = Timeline(entries: Self.longEssentialThenPromotion(steady: 41).entries)
        let svg = TimelineSVG(timeline: timeline, caption: "").render()
        let axis = TimelineAxis(times: timeline.eventTimes, start: timeline.start, end: timeline.end,
                                x0: TimelineStyle.plotX, width: TimelineStyle.plotWidth)
        let fold = try #require(axis.folds.first)
        #expect(axis.folds.count == 1)
        #expect(abs(fold.duration - 41) < 0.001)
        #expect(svg.contains("⋯ 41 s of steady download ⋯"), "the fold's label is on the picture")
        #expect(svg.contains("class=\"fold\""))
        // The promotion, a second of the 42, now has room: more than a third of the plot.
        let promotion = axis.x(timeline.end) - axis.x(fold.end)
        #expect(promotion > TimelineStyle.plotWidth / 3, "\(promotion) px")
    }

    @Test("Gaps under the threshold are not folded: events evenly spread keep one scale")
    func shortGapIsNotFolded() {
        let times = [0, 1, 2, 3, 4, 5, 6, 7, 8].map { Script.start.addingTimeInterval($0) }
        let axis = TimelineAxis(times: times, start: times[0], end: times[8], x0: 0, width: 1000)
        // Each gap is an eighth of the whole, but no longer than the typical one.
        #expect(TimelineAxis.foldThreshold(gaps: Array(repeating: 1, count: 8), total: 8) == 4)
        #expect(TimelineAxis.foldThreshold(gaps: [0.01, 0.02, 0.01, 5], total: 5.04) == 0.63)
        #expect(axis.folds.isEmpty)
        let xs = times.map(axis.x)
        #expect(zip(xs, xs.dropFirst()).allSatisfy { abs(($1 - $0) - 125) < 0.001 }, "one scale throughout: \(xs)")
    }

    @Test("Quiet stretches on an accelerated clock say how much device time they fold")
    func foldSaysDeviceTime() {
        var script = Script()
        for launch in 0..<4 {
            let at = Double(launch) * 5
            script.at(at, "launchInBackground", to: "app", detail: "pid \(300 + launch), for its task",
                      deviceTime: Script.start.addingTimeInterval(at * 3600))
            script.at(at + 0.01, "connected", from: "app", to: "backgroundassetsd", detail: "pid \(300 + launch)",
                      deviceTime: Script.start.addingTimeInterval((at + 0.01) * 3600))
            script.at(at + 0.04, "disconnected", from: "app", to: "backgroundassetsd", detail: "pid \(300 + launch)",
                      deviceTime: Script.start.addingTimeInterval((at + 0.04) * 3600))
            script.at(at + 0.05, "backgroundLaunchDone", to: "app", detail: "pid \(300 + launch)",
                      deviceTime: Script.start.addingTimeInterval((at + 0.05) * 3600))
        }
        let timeline = Timeline(entries: script.entries)
        let text = timeline.describeFold(from: Script.start, to: Script.start.addingTimeInterval(5))
        #expect(text.label == "⋯ 5.0 s (device: 5 h) with no events ⋯")
        #expect(text.short == "5.0 s")
        let svg = TimelineSVG(timeline: timeline, caption: "").render()
        #expect(svg.components(separatedBy: "class=\"fold\"").count - 1 == 3, "one fold between each two launches")
        // Each background launch is one span, named as every process is, whatever its connections did.
        let app = timeline.rows.first { $0.kind == .app }
        #expect(app?.spans.map(\.label) == (300..<304).map { "app in the background (pid \($0))" })
        #expect(app?.spans.allSatisfy { abs($0.end.timeIntervalSince($0.start) - 0.05) < 0.001 } == true)
    }

    @Test("No mark hides another in the same lane, even where a promotion and a finish coincide",
          arguments: [2.0, 41.0])
    func marksDoNotOverlap(steady: Double) {
        let timeline = Timeline(entries: Self.longEssentialThenPromotion(steady: steady).entries)
        let picture = TimelineSVG(timeline: timeline, caption: "")
        let axis = TimelineAxis(times: timeline.eventTimes, start: timeline.start, end: timeline.end,
                                x0: TimelineStyle.plotX, width: TimelineStyle.plotWidth)
        for lane in timeline.lanes {
            let placed = picture.markPlacements(of: lane, axis: axis)
            let extents = placed.map { ($0.x - $0.item.halfWidth)...($0.x + $0.item.halfWidth) }
                .sorted { $0.lowerBound < $1.lowerBound }
            for (left, right) in zip(extents, extents.dropFirst()) {
                #expect(left.upperBound < right.lowerBound, "\(lane.download): \(left) and \(right) overlap")
            }
            #expect(placed.allSatisfy { $0.x >= $0.item.x }, "a mark moves right of its time, never left")
        }
        let c = timeline.lanes.first { $0.download == "c" }
        #expect(c?.marks.map(\.mark) == [.promoted, .finished])
    }

    @Test("Marks at one time are spread in the order given, just clear of each other")
    func spreadKeepsOrder() {
        let spread = MarkLayout.spread([.init(x: 10, halfWidth: 5), .init(x: 10, halfWidth: 5), .init(x: 40, halfWidth: 2)])
        #expect(spread == [10, 21.5, 40])
    }

    @Test("A label fits inside its bar, else goes whole to its right, else is left out")
    func labelPlacement() {
        let text = "extension (pid 29238)"
        let width = LabelPlacement.width(of: text)
        #expect(LabelPlacement.place(text, bar: 100...(110 + width), obstacles: [], limit: 1000) == .inside(x: 104))
        // A short bar: the label goes right of it, clear of the next bar.
        #expect(LabelPlacement.place(text, bar: 100...110, obstacles: [400...500], limit: 1000) == .outside(x: 114))
        // The next bar is too close, or the plot ends: no sliver, no label.
        #expect(LabelPlacement.place(text, bar: 100...110, obstacles: [130...200], limit: 1000) == .omitted)
        #expect(LabelPlacement.place(text, bar: 900...910, obstacles: [], limit: 1000) == .omitted)
        // A symbol near the end may have its label on its left, where that is allowed and free.
        #expect(LabelPlacement.place(text, bar: 900...910, obstacles: [], limit: 1000, leftLimit: 200)
            == .outside(x: 896 - width))
        #expect(LabelPlacement.place(text, bar: 900...910, obstacles: [850...860], limit: 1000, leftLimit: 200) == .omitted)
        // Inside, it keeps off what is drawn over the bar.
        #expect(LabelPlacement.place("install", bar: 0...300, covered: [0...250], obstacles: [], limit: 1000)
            == .inside(x: 254))
    }

    @Test("A row's labels are whole, clear of each other and of other bars, and processes are named one way")
    func rowLabels() throws {
        let timeline = Timeline(entries: Self.longEssentialThenPromotion(steady: 41).entries)
        let picture = TimelineSVG(timeline: timeline, caption: "")
        let axis = TimelineAxis(times: timeline.eventTimes, start: timeline.start, end: timeline.end,
                                x0: TimelineStyle.plotX, width: TimelineStyle.plotWidth)
        var names: [String] = []
        for row in timeline.rows {
            let labels = picture.labels(of: row, axis: axis)
            let extents = labels.map { $0.x...($0.x + LabelPlacement.width(of: $0.text)) }
                .sorted { $0.lowerBound < $1.lowerBound }
            for (left, right) in zip(extents, extents.dropFirst()) { #expect(left.upperBound < right.lowerBound) }
            #expect(labels.allSatisfy { !$0.text.contains("…") }, "no label is cut short")
            names += labels.map(\.text)
        }
        #expect(names.contains("extension (pid 100)"))
        #expect(names.contains("app (pid 200)"))
        #expect(names.contains("essential downloads"))
    }

    @Test("The title counts the lanes drawn and their bytes; the line under it counts how they ended")
    func titleCountsLanes() throws {
        var script = Script()
        for (index, id) in ["a", "b", "c"].enumerated() {
            script.at(Double(index), "downloadDidBegin", download: id, transfer: Script.transfer(0, of: 1_048_576))
            if id == "c" {
                script.at(Double(index) + 1, "failedWithError", download: id, detail: "Server error: answered 404",
                          transfer: Script.transfer(0, of: 1_048_576))
            } else {
                script.at(Double(index) + 1, "finishedWithFileURL", download: id,
                          transfer: Script.transfer(1_048_576, of: 1_048_576))
            }
        }
        let timeline = Timeline(entries: script.entries)
        let svg = TimelineSVG(timeline: timeline, caption: "").render()
        let lanes = TimelineSVGTests.LaneCollector.parse(svg).lanes
        #expect(lanes.count == 3)
        #expect(svg.contains("Timeline of \(Script.app): \(lanes.count) downloads, 2.0 MiB</text>"))
        #expect(svg.contains(">2 finished, 1 failed · "))
    }

    @Test("A picture without downloads says so, and what its periodic check came to")
    func periodicCheckWithoutDownloads() {
        var script = Script()
        script.at(0, "periodicCheck", to: "backgroundassetsd")
        script.at(0.01, "contentRequest", to: "backgroundassetsd", detail: "periodic")
        script.at(0.02, "extensionLaunched", to: "extension", detail: "pid 100")
        // A millisecond of exclusive control: two and a half pixels at this picture's scale.
        script.at(0.1, "acquireExclusiveControl", from: "extension", to: "backgroundassetsd")
        script.at(0.101, "releaseExclusiveControl", from: "extension", to: "backgroundassetsd")
        script.at(0.3, "scheduleReturnedDownloads", to: "backgroundassetsd", detail: "0 scheduled, 0 refused")
        script.at(0.4, "extensionExited", from: "extension", to: "backgroundassetsd", detail: "exited with status 0")
        let timeline = Timeline(entries: script.entries)
        let svg = TimelineSVG(timeline: timeline, caption: "").render()
        #expect(svg.contains("Timeline of \(Script.app): no downloads</text>"))
        #expect(svg.contains(">1 periodic check, 1 extension run · "))
        #expect(svg.contains(">periodic check: no downloads returned</text>"))
        // Every span of the rows is wide enough to see at 1x, however short it was.
        let rows = svg.components(separatedBy: "<g class=\"activity\"").dropFirst().map { $0.components(separatedBy: "</g>")[0] }
        let widths = rows.flatMap { $0.components(separatedBy: "<rect ").dropFirst() }.compactMap { rect in
            rect.components(separatedBy: "width=\"").dropFirst().first?.split(separator: "\"").first.flatMap { Double($0) }
        }
        #expect(!widths.isEmpty && widths.allSatisfy { $0 >= 4 }, "four pixels at least: \(widths)")
    }
}

extension TimelineLayoutTests {
    @Test("Fold labels never overlap: all full where they fit, else all shorter, and one lone fold keeps its whole label")
    func foldLabelsDoNotOverlap() {
        let labels = ["⋯ 6.0 s (device: 5 h 58 min) with no events ⋯", "⋯ 6.0 s (device: 5 h 58 min) ⋯", "6.0 s"]
        let crowded = [568.0, 668, 803, 912].map { (middle: $0, labels: labels) }
        let placed = TimelineSVG.placeFoldLabels(crowded, left: 200, right: 1236)
        #expect(placed.allSatisfy { $0?.text == labels[1] }, "\(placed)")
        for line in 0..<TimelineSVG.foldLabelLines {
            let extents = placed.compactMap { $0 }.filter { $0.line == line }.map(\.extent).sorted { $0.lowerBound < $1.lowerBound }
            #expect(zip(extents, extents.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
        }
        let lone = TimelineSVG.placeFoldLabels([(middle: 230, labels: labels)], left: 200, right: 1236)
        #expect(lone == [TimelineSVG.PlacedLabel(line: 0, text: labels[0], x: 200 + Double(labels[0].count) * 3)],
                "a fold at the edge has its label lean inwards")
    }
}

extension TimelineLayoutTests {
    @Test("A logarithmic rate chart draws its grid at 1, 10 and 100 of a binary unit, labelled as round numbers")
    func logarithmicRateGridIsRound() {
        // A background transfer at 5 kB/s beside a foreground one at 1 GB/s.
        let scale = TimelineSVG.RateScale(peak: 1_000_000_000, smallest: 5_000)
        #expect(scale.floor == 1024, "the round rate at or below the smallest")
        #expect(scale.gridLines.map(TimelineSVG.RateScale.label)
            == ["10 KiB/s", "100 KiB/s", "1 MiB/s", "10 MiB/s", "100 MiB/s"])
        #expect(scale.gridLines.allSatisfy { scale.fraction($0) > 0 && scale.fraction($0) < 1 })
        let heights = scale.gridLines.map(scale.fraction)
        #expect(zip(heights, heights.dropFirst()).allSatisfy { $0 < $1 }, "\(heights)")

        let slow = TimelineSVG.RateScale(peak: 2_000, smallest: 0.5)
        #expect(slow.floor == 0.1, "below a byte a second, a power of ten")
        #expect(slow.gridLines.map(TimelineSVG.RateScale.label) == ["1 byte/s", "10 bytes/s", "100 bytes/s", "1 KiB/s"])

        // Rates within two decades keep a linear scale and its single line at half the peak.
        let linear = TimelineSVG.RateScale(peak: 3_000_000, smallest: 100_000)
        #expect(linear.floor == nil)
        #expect(linear.gridLines.map(TimelineSVG.RateScale.label) == ["1.4 MiB/s"])
    }
}
