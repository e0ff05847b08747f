/*
Abstract:
`trace`: prints the cross-process events, follows them as they happen, or draws a Mermaid sequence diagram.
*/

import BackgroundAssetsIPC
import Foundation

/// Reads `system/trace.jsonl`, filters it, and prints it as lines or as a sequence diagram.
struct TraceCommand: DebugSubcommand {
    static let name = "trace"
    static let synopsis = "[--mermaid | --follow] [--app BUNDLE_ID] [--download ID] [--last N]"
    static let summary = "Print the cross-process events, follow them, or draw them as a sequence diagram."
    static let details = """
          --mermaid          Print a Mermaid sequence diagram instead of one line per event.
          --follow           After the events so far, print each new one as it is appended, until Ctrl-C.
                             Lines only: a diagram needs the whole trace, so --mermaid is refused with it.
          --app BUNDLE_ID    Only the events of this app.
          --download ID      Only the events of this download (and the app's connections).
          --last N           Only the last N events that pass the filters (with --follow: of those so far).
        Reads system/trace.jsonl directly; the service need not be running.
        """

    /// How often `--follow` looks for new events.
    static let followInterval = Duration.milliseconds(200)

    var mermaid: Bool
    var follow: Bool
    var app: String?
    var download: String?
    var last: Int?

    init(parsing arguments: inout SubcommandArguments) throws(DebugToolError) {
        mermaid = arguments.flag("--mermaid")
        follow = arguments.flag("--follow")
        if mermaid, follow {
            throw .usage(
                "--follow prints events as lines and a --mermaid diagram needs the whole trace; drop one of them.")
        }
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
        if follow {
            return await followTrace(TraceReader(file: file), console: context.console) { context.console.output($0) }
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw DebugToolError(
                "There is no trace at \(file.path) yet: no process has talked to the service in this device root. "
                    + "Run a download (or the sample) first, or check BA_DEVICE_ROOT.")
        }
        var entries = TraceEntry.entries(in: data).filter(matches)
        if let last { entries = Array(entries.suffix(last)) }
        if mermaid {
            // The diagram ends with its own newline.
            context.console.output(String(TraceEntry.mermaidDiagram(of: entries).dropLast()))
        } else {
            for entry in entries { context.console.output(Self.line(for: entry)) }
        }
        return .success
    }

    /// Prints the events so far, then each new one, until the task is cancelled (Ctrl-C ends the process).
    /// - Parameters:
    ///   - reader: The trace file's reader, before its first read.
    ///   - console: Where the lines go; notes go to standard error.
    ///   - interval: How often to look for new events.
    ///   - emit: Prints one event's line.
    /// - Returns: `.interrupted`, once cancelled.
    func followTrace(
        _ reader: TraceReader, console: Console, interval: Duration = TraceCommand.followInterval,
        emit: (String) -> Void
    ) async -> DebugExitCode {
        var reader = reader
        if !reader.fileExists {
            console.error("No trace at \(reader.file.path) yet; waiting for the first event (Ctrl-C to stop).")
        }
        var entries = reader.newEntries().filter(matches)
        if let last { entries = Array(entries.suffix(last)) }
        entries.forEach { emit(Self.line(for: $0)) }
        while !Task.isCancelled {
            // The file is polled, not watched: inotify is Linux-only and the trace grows by a line at a time.
            try? await Task.sleep(for: interval)
            reader.newEntries().filter(matches).forEach { emit(Self.line(for: $0)) }
        }
        return .interrupted
    }

    /// Whether an entry passes the `--app` and `--download` filters; a download's filter keeps the
    /// entries about no download (connections), which say who was there.
    func matches(_ entry: TraceEntry) -> Bool {
        (app == nil || entry.app == app) && (download == nil || entry.download == download || entry.download == nil)
    }

    /// `12:08:03.121 app -> backgroundassetsd scheduleDownload wwdc23-10108 (detail)`.
    static func line(for entry: TraceEntry) -> String {
        let time = entry.time.formatted(.iso8601.time(includingFractionalSeconds: true))
        let subject = [entry.download, entry.detail.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        return "\(time) \(entry.from) -> \(entry.to) \(entry.event)" + (subject.isEmpty ? "" : " \(subject)")
    }
}
