/*
Abstract:
`trace --serve`: the timeline as a web page on 127.0.0.1 that redraws itself while the trace grows.
*/

import BackgroundAssetsIPC
import Foundation

extension TraceCommand {
    /// The first line `--serve` prints on standard output, before the page's address.
    static let servingPrefix = "Serving the live timeline at "

    /// Serves the live timeline until the task is cancelled (Ctrl-C ends the process).
    /// - Parameters:
    ///   - port: The port on 127.0.0.1, or 0 for a free one.
    ///   - context: Where the address goes (standard output) and which device root's trace to draw.
    ///   - now: The time `--since` and `--until` are relative to.
    /// - Returns: `.interrupted`, once cancelled.
    /// - Throws: ``DebugToolError`` when the port cannot be bound.
    func serve(on port: Int, in context: ToolContext, now: Date) async throws -> DebugExitCode {
        let file = context.paths.traceFile
        let source = LiveTimelineSource(file: file, caption: describeFilters()) { all throws(DebugToolError) in
            try pictureEntries(in: all, now: now)
        }
        let routes = LiveTimelineRoutes(
            page: { LiveTimelinePage.render(picture: source.picture(), file: file.path) },
            picture: { source.picture() })
        let server = try LiveTimelineServer(port: port, routes: routes)
        // The address alone: the demo and scripts read it, and the page names the file it draws.
        context.console.output(Self.servingPrefix + server.url)
        await server.run()
        return .interrupted
    }

    /// The entries a picture draws: every entry that passes the filters (progress samples too), then
    /// the last `--last` of them.
    /// - Throws: ``DebugToolError`` when `--since` or `--until` names an event the trace does not have yet.
    func pictureEntries(in all: [TraceEntry], now: Date) throws(DebugToolError) -> [TraceEntry] {
        let window = try window(now: now, in: all)
        let entries = all.filter { matches($0, in: window) }
        return last.map { Array(entries.suffix($0)) } ?? entries
    }
}
