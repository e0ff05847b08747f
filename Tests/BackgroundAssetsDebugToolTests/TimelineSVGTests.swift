/*
Abstract:
Tests of the timeline picture: well-formed SVG, a lane for every download from one to a thousand, escaped text.
*/

import BackgroundAssetsIPC
import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import BackgroundAssetsDebugTool

@Suite("Draw the trace as a timeline")
struct TimelineSVGTests {
    /// What an XML parser found in a picture: whether it parsed, and which downloads have a lane.
    final class LaneCollector: NSObject, XMLParserDelegate {
        var lanes: [String] = []
        var groups: [[String]] = []
        var activityRows: [String] = []

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            guard element == "g" else { return }
            switch attributes["class"] {
            case "lane": lanes.append(attributes["data-download"] ?? "")
            case "lane-group": groups.append((attributes["data-downloads"] ?? "").split(separator: " ").map(String.init))
            case "activity": activityRows.append(attributes["data-row"] ?? "")
            default: break
            }
        }

        /// Parses a document, failing the test with the parser's error when it is not well-formed.
        static func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> LaneCollector {
            let collector = LaneCollector()
            let parser = XMLParser(data: Data(text.utf8))
            parser.delegate = collector
            let parsed = parser.parse()
            #expect(parsed, "not well-formed XML: \(String(describing: parser.parserError))", sourceLocation: sourceLocation)
            return collector
        }
    }

    @Test("The picture is well-formed and every download has its lane, from one download to a thousand",
          arguments: [1, 12, 40, 41, 160, 161, 1000])
    func everyDownloadHasItsLane(count: Int) {
        let timeline = Timeline(entries: TraceScript.manyDownloads(count).entries)
        let svg = TimelineSVG(timeline: timeline, caption: "test").render()
        let found = LaneCollector.parse(svg)
        let drawn = found.lanes + found.groups.flatMap { $0 }
        #expect(drawn.sorted() == (0..<count).map { "session-\($0)" }.sorted())
        #expect(Set(drawn).count == drawn.count, "no download is drawn twice")
        // Lanes stay readable: each its own lane up to 160 downloads, then rows of a few.
        #expect(found.groups.isEmpty == (count <= TimelineSVG.thinLaneLimit))
        #expect(found.groups.count <= TimelineSVG.thinLaneLimit)
        #expect(found.activityRows == ["install", "extension"])
        // Small enough to open at once: about a kilobyte and a half per lane, and less per thin row.
        #expect(svg.utf8.count < 30_000 + count * 1_500, "\(svg.utf8.count) bytes")
    }

    @Test("Identifiers and messages from the trace are escaped, control characters included")
    func escapesText() {
        var script = TraceScript()
        let hostile = #"a<b>&"c"#
        script.at(0, "downloadDidBegin", download: hostile, transfer: TraceScript.transfer(0))
        script.at(1, "failedWithError", download: hostile, detail: "bad \u{1} byte <script>", transfer: TraceScript.transfer(1))
        let svg = TimelineSVG(timeline: Timeline(entries: script.entries), caption: "").render()
        let found = LaneCollector.parse(svg)
        #expect(found.lanes == [hostile])
        #expect(!svg.contains("<script>"))
    }

    @Test("The web page holds the picture and a row per download")
    func webPage() {
        let timeline = Timeline(entries: TraceScript.manyDownloads(3).entries)
        let page = TimelineHTML(timeline: timeline, caption: "").render()
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("<svg "))
        #expect(!page.contains("<?xml"))
        for index in 0..<3 { #expect(page.contains("<td>session-\(index)</td>")) }
    }
}
