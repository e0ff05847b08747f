/*
Abstract:
`trace --svg` and `--html`: the filtered trace drawn as a timeline, written where asked.
*/

import BackgroundAssetsIPC
import Foundation

extension TraceCommand {
    /// Draws entries as a timeline, an SVG or a web page as the options ask, and writes it.
    /// - Parameters:
    ///   - entries: The filtered entries, at least one.
    ///   - path: The file, or `-` for standard output.
    ///   - context: Where to print the note saying where the picture went.
    /// - Throws: ``DebugToolError`` when the file cannot be written.
    func draw(_ entries: [TraceEntry], to path: String, in context: ToolContext) throws {
        let timeline = Timeline(entries: entries)
        let caption = describeFilters()
        let text = if case .html = output {
            TimelineHTML(timeline: timeline, caption: caption).render()
        } else {
            TimelineSVG(timeline: timeline, caption: caption).render()
        }
        try write(text, to: path, context: context, lanes: timeline.lanes.count)
    }

    /// The filters in a few words, for the picture's caption.
    func describeFilters() -> String {
        var parts: [String] = []
        if let app { parts.append("app \(app)") }
        if let download { parts.append("download \(download)") }
        if let since { parts.append("since \(since.text)") }
        if let until { parts.append("until \(until.text)") }
        if let last { parts.append("last \(last) events") }
        return parts.joined(separator: ", ")
    }

    /// Writes a picture to a file (or standard output), saying where it went.
    private func write(_ text: String, to path: String, context: ToolContext, lanes: Int) throws {
        guard path != "-" else { return context.console.output(String(text.dropLast())) }
        let url = URL(fileURLWithPath: path)
        do {
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw DebugToolError("Could not write \(url.path): \(DebugTool.clause(error)). "
                + "Choose a file in a folder that exists and that you can write.")
        }
        let kind = if case .html = output { "web page" } else { "SVG" }
        let downloads = lanes == 1 ? "1 download" : "\(lanes) downloads"
        context.console.error("Drew \(downloads) as a timeline into \(url.path) (\(kind)); open it in a browser.")
    }
}
