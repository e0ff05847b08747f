/*
Abstract:
`trace`: prints the device's cross-process events, or draws them as a Mermaid sequence diagram.
*/

import BackgroundAssetsIPC
import Foundation

/// Reads `system/trace.jsonl`, filters it, and prints it as lines or as a sequence diagram.
struct TraceCommand: DebugSubcommand {
    static let name = "trace"
    static let synopsis = "[--mermaid] [--app BUNDLE_ID] [--download ID] [--last N]"
    static let summary = "Print the cross-process events, or draw them as a sequence diagram."
    static let details = """
          --mermaid          Print a Mermaid sequence diagram instead of one line per event.
          --app BUNDLE_ID    Only the events of this app.
          --download ID      Only the events of this download (and the app's connections).
          --last N           Only the last N events that pass the filters.
        Reads system/trace.jsonl directly; the service need not be running.
        """

    var mermaid: Bool
    var app: String?
    var download: String?
    var last: Int?

    init(parsing arguments: inout CommandLineArguments) throws(DebugToolError) {
        mermaid = arguments.flag("--mermaid")
        app = try arguments.option("--app")
        download = try arguments.option("--download")
        if let text = try arguments.option("--last") {
            guard let count = Int(text), count > 0 else {
                throw .usage("--last takes a positive number of events, not \(text.debugDescription).")
            }
            last = count
        }
        try arguments.finish()
    }

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let file = context.paths.traceFile
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw DebugToolError(
                "There is no trace at \(file.path) yet: no process has talked to the service in this device root. "
                    + "Run a download (or the sample) first, or check BA_DEVICE_ROOT.")
        }
        var entries = TraceEntry.entries(in: data).filter { entry in
            (app == nil || entry.app == app) && (download == nil || entry.download == download || entry.download == nil)
        }
        if let last { entries = Array(entries.suffix(last)) }
        if mermaid {
            // The diagram ends with its own newline.
            context.console.output(String(TraceEntry.mermaidDiagram(of: entries).dropLast()))
        } else {
            for entry in entries { context.console.output(Self.line(for: entry)) }
        }
        return .success
    }

    /// `12:08:03.121 app -> backgroundassetsd scheduleDownload wwdc23-10108 (detail)`.
    static func line(for entry: TraceEntry) -> String {
        let time = entry.time.formatted(.iso8601.time(includingFractionalSeconds: true))
        let subject = [entry.download, entry.detail.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        return "\(time) \(entry.from) -> \(entry.to) \(entry.event)" + (subject.isEmpty ? "" : " \(subject)")
    }
}
