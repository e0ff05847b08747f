/*
Abstract:
`trace`: prints the cross-process events, follows them, or draws them as a diagram or a timeline, once or live.
*/

import BackgroundAssetsIPC
import Foundation

/// Reads `system/trace.jsonl`, filters it, and prints it as lines, a sequence diagram, or a timeline picture.
struct TraceCommand: DebugSubcommand {
    /// How often `--follow` looks for new events.
    static let followInterval = Duration.milliseconds(200)
    /// How many events `--follow` prints before the new ones, unless told.
    static let followBacklog = 10

    /// What to make of the events.
    enum Output: Equatable {
        case lines, mermaid, follow
        case svg(path: String)
        case html(path: String)
        case serve(port: Int)
    }

    @Flag("--mermaid", help: "Print a Mermaid sequence diagram instead of one line per event.", traits: [.oneOf("output")])
    var mermaid: Bool
    @Option("--svg", valueName: "FILE", help: """
        Draw a timeline into FILE (- for standard output): a lane per download with its bytes over time, and the \
        installs, extension runs, app launches, tasks, periodic checks and exclusive control above. \
        Self-contained; open it in a browser.
        """, traits: [.oneOf("output")])
    var svg: String?
    @Option(
        "--html", valueName: "FILE", help: "The same timeline in a web page, with a table of the downloads under it.",
        traits: [.oneOf("output")])
    var html: String?
    @Option("--serve", valueName: "PORT", help: """
        Serve the timeline as a web page on 127.0.0.1:PORT (0 for a free one) that redraws itself while the \
        trace grows: lanes appear and fill as bytes arrive. Prints the page's address, then serves until Ctrl-C.
        """, traits: [.oneOf("output")], as: .number(in: 0...65535, expected: "a port from 0 to 65535"))
    var serve: Int?
    /// Whether the command follows the trace.
    @Flag("--follow", help: """
        After the events so far (the last 10, unless --last or --since says), print each new one as it is \
        appended, until Ctrl-C. Lines only.
        """, traits: [.oneOf("output")])
    var follow: Bool
    /// Whether lines are the stored JSON objects rather than sentences.
    @Flag("--json", help: """
        Print each event as the JSON object system/trace.jsonl stores, one per line, instead of a sentence; \
        with --follow too.
        """)
    var json: Bool
    @Option(appBundleID: "Only the events of this app.")
    var app: String?
    @Option("--download", valueName: "ID", help: "Only the events of this download (and the app's connections).")
    var download: String?
    @Option("--since", valueName: "TIME", help: """
        Only the events from TIME: now, a time ago (90s, 5m, 2h, 1d), a time of day in UTC as trace prints it \
        (14:07:02), a date (2026-11-24T14:07:02Z), or the last time an event happened: last-install, \
        last-appLaunched, last-uninstall.
        """, as: .timeBound)
    var since: TraceTimeBound?
    @Option("--until", valueName: "TIME", help: "Only the events up to TIME, in the same forms.", as: .timeBound)
    var until: TraceTimeBound?
    @Option(
        "--last", valueName: "N", help: "Only the last N events that pass the filters.",
        as: .number(in: 1...Int.max, expected: "a positive number of events"))
    var last: Int?
    @Flag("--progress", help: """
        Also print the downloadProgress samples (a few a second per transfer), which lines and diagrams leave \
        out; the timeline always draws them.
        """)
    var progress: Bool

    func run(in context: ToolContext) async throws -> DebugExitCode {
        let file = context.paths.traceFile
        let now = Date.now
        if follow {
            return await followTrace(TraceReader(file: file), console: context.console, now: now) { context.console.output($0) }
        }
        if case let .serve(port) = output { return try await serve(on: port, in: context, now: now) }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw DebugToolError(
                "There is no trace at \(file.path) yet: no process has talked to the service in this device root. "
                    + "Run a download (or the sample) first, or check BA_DEVICE_ROOT.")
        }
        let pictures: Bool
        switch output {
        case .svg, .html: pictures = true
        default: pictures = false
        }
        let all = TraceEntry.entries(in: data)
        let window = try window(now: now, in: all)
        var entries = all.filter { matches($0, in: window) && (pictures || shows($0)) }
        if let last { entries = Array(entries.suffix(last)) }
        switch output {
        case .lines, .follow, .serve:
            for entry in entries { context.console.output(text(for: entry)) }
        case .mermaid:
            // The diagram ends with its own newline.
            context.console.output(String(TraceEntry.mermaidDiagram(of: entries).dropLast()))
        case let .svg(path), let .html(path):
            guard !entries.isEmpty else {
                throw DebugToolError("No event of \(file.path) passes the filters, so there is nothing to draw. "
                    + "Widen --since or --until, or check -b and --download against trace's lines.")
            }
            try draw(entries, to: path, in: context)
        }
        return .success
    }

    /// Prints the events so far, then each new one, until the task is cancelled (Ctrl-C ends the process).
    /// - Parameters:
    ///   - reader: The trace file's reader, before its first read.
    ///   - console: Where the lines go; notes go to standard error.
    ///   - now: The time `--since` and `--until` are relative to.
    ///   - interval: How often to look for new events.
    ///   - emit: Prints one event's line.
    /// - Returns: `.interrupted`, once cancelled.
    func followTrace(
        _ reader: TraceReader, console: Console, now: Date = .now, interval: Duration = TraceCommand.followInterval,
        emit: (String) -> Void
    ) async -> DebugExitCode {
        var reader = reader
        if !reader.fileExists {
            console.error("No trace at \(reader.file.path) yet; waiting for the first event (Ctrl-C to stop).")
        }
        let existing = reader.newEntries()
        let window: (since: Date?, until: Date?)
        do {
            window = try self.window(now: now, in: existing)
        } catch {
            console.error("backgroundassets-debug trace: \(error.message)")
            return .failure
        }
        var entries = existing.filter { matches($0, in: window) && shows($0) }
        if let backlog = last ?? (since == nil ? Self.followBacklog : nil) { entries = Array(entries.suffix(backlog)) }
        entries.forEach { emit(text(for: $0)) }
        while !Task.isCancelled {
            // The file is polled, not watched: inotify is Linux-only and the trace grows by a line at a time.
            try? await Task.sleep(for: interval)
            // New events are new: `--until` bounds only what was there already.
            reader.newEntries().filter { matches($0, in: (nil, nil)) && shows($0) }.forEach { emit(text(for: $0)) }
        }
        return .interrupted
    }

    /// The times `--since` and `--until` name, relative to `now` and the trace.
    /// - Throws: ``DebugToolError`` when a `last-EVENT` names an event the trace does not have.
    func window(now: Date, in entries: [TraceEntry]) throws(DebugToolError) -> (since: Date?, until: Date?) {
        func resolve(_ bound: TraceTimeBound?, _ option: String) throws(DebugToolError) -> Date? {
            guard let bound else { return nil }
            guard let date = bound.date(relativeTo: now, in: entries) else {
                throw DebugToolError("\(option) \(bound.text) names an event the trace does not have; "
                    + "the events are in the third column of trace's lines (install, appLaunched, uninstall, ...).")
            }
            return date
        }
        return (try resolve(since, "--since"), try resolve(until, "--until"))
    }

    /// Whether an entry passes the `-b` and `--download` filters, and falls in the time window; a
    /// download's filter keeps the entries about no download (connections), which say who was there.
    func matches(_ entry: TraceEntry, in window: (since: Date?, until: Date?)) -> Bool {
        guard app == nil || entry.app == app, download == nil || entry.download == download || entry.download == nil
        else { return false }
        if let since = window.since, entry.time < since { return false }
        if let until = window.until, entry.time > until { return false }
        return true
    }

    /// Whether lines and diagrams show the entry: progress samples only with `--progress`.
    func shows(_ entry: TraceEntry) -> Bool {
        progress || entry.event != TraceEntry.progressEvent
    }

    /// An event as this command prints it: its line, or with `--json` its object as the trace stores it.
    func text(for entry: TraceEntry) -> String {
        json ? String(decoding: entry.redactedLine.dropLast(), as: UTF8.self) : Self.line(for: entry)
    }

    /// `12:08:03.121 app -> backgroundassetsd scheduleDownload wwdc23-10108 (detail)`; a signpost's
    /// line names it: `app -> app signpostBegin "Load manifest" (detail)`.
    static func line(for entry: TraceEntry) -> String {
        let time = entry.time.formatted(.iso8601.time(includingFractionalSeconds: true))
        let name = entry.signpost.map { "\"\($0.name)\"" }
        var subject = [entry.download ?? name, entry.detail.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        if entry.event == TraceEntry.progressEvent, let transfer = entry.transfer {
            subject += " (\(transfer.written) of \(transfer.expected.map(String.init) ?? "?") bytes)"
        }
        return "\(time) \(entry.from) -> \(entry.to) \(entry.event)" + (subject.isEmpty ? "" : " \(subject)")
    }
}
