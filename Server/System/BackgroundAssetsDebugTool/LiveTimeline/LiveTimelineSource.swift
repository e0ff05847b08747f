/*
Abstract:
The live timeline's picture: the trace read as it grows, redrawn with the timeline's code when it changed.
*/

import BackgroundAssetsIPC
import Foundation
import Synchronization

/// Reads `system/trace.jsonl` incrementally and draws the current timeline on demand.
///
/// The file only grows, so each call reads what was appended since the last one; a file replaced
/// or cut short (deleted and written anew, a device root set up again) starts the picture over. The
/// picture is drawn again only when an entry arrived, so a page polling an idle trace costs a stat.
final class LiveTimelineSource: Sendable {
    /// Picks the entries to draw from every entry read so far (the trace command's filters).
    typealias Selection = @Sendable ([TraceEntry]) throws(DebugToolError) -> [TraceEntry]

    /// The trace file.
    let file: URL
    private let caption: String
    private let select: Selection
    private let state: Mutex<State>

    private struct State {
        var reader: TraceReader
        var entries: [TraceEntry] = []
        var generation = 0
        /// The last picture and the entry count it drew, reused until another entry arrives.
        var drawn: (count: Int, generation: Int, svg: String)?
    }

    /// - Parameters:
    ///   - file: The trace file; it need not exist yet.
    ///   - caption: The line under the picture's title.
    ///   - select: Picks the entries to draw.
    init(file: URL, caption: String, select: @escaping Selection) {
        self.file = file
        self.caption = caption
        self.select = select
        state = Mutex(State(reader: TraceReader(file: file)))
    }

    /// The timeline of every entry so far, as a standalone SVG; a picture saying what it waits for
    /// while there is nothing to draw.
    func picture() -> String {
        state.withLock { state in
            guard state.reader.fileExists else {
                state.entries = []
                state.drawn = nil
                return Self.notice("Waiting for the first event in \(file.path).")
            }
            let new = state.reader.newEntries()
            if state.reader.generation != state.generation {
                state.generation = state.reader.generation
                state.entries = []
            }
            state.entries += new
            if let drawn = state.drawn, drawn.count == state.entries.count, drawn.generation == state.generation {
                return drawn.svg
            }
            let svg = draw(state.entries)
            state.drawn = (state.entries.count, state.generation, svg)
            return svg
        }
    }

    private func draw(_ entries: [TraceEntry]) -> String {
        do {
            let selected = try select(entries)
            guard !selected.isEmpty else {
                return Self.notice(entries.isEmpty
                    ? "Waiting for the first event in \(file.path)."
                    : "No event of \(file.path) passes the filters yet.")
            }
            return TimelineSVG(timeline: Timeline(entries: selected), caption: caption).render()
        } catch {
            return Self.notice(error.message)
        }
    }

    /// A small picture with one sentence, in the timeline's style, for when there is no timeline to draw.
    static func notice(_ sentence: String) -> String {
        var svg = SVGDocument()
        svg.text("Live timeline", [("x", "16"), ("y", "28"), ("class", "title")])
        svg.text(sentence, [("x", "16"), ("y", "52"), ("class", "subtitle")])
        return svg.document(width: TimelineStyle.width, height: 72, style: TimelineStyle.sheet)
    }
}
