/*
Abstract:
What `trace` takes on its command line: one way to show the events, and the filters, each declared once.
*/

extension TraceCommand {
    static let mermaid = Flag("--mermaid", help: "Print a Mermaid sequence diagram instead of one line per event.")
    static let svg = Option("--svg", valueName: "FILE", help: """
        Draw a timeline into FILE (- for standard output): a lane per download with its bytes over time, and the \
        installs, extension runs, app launches, tasks, periodic checks and exclusive control above. \
        Self-contained; open it in a browser.
        """)
    static let html = Option(
        "--html", valueName: "FILE", help: "The same timeline in a web page, with a table of the downloads under it.")
    static let serve = Option<Int>.number(
        "--serve", valueName: "PORT", in: 0...65535, expected: "a port from 0 to 65535", help: """
            Serve the timeline as a web page on 127.0.0.1:PORT (0 for a free one) that redraws itself while the \
            trace grows: lanes appear and fill as bytes arrive. Prints the page's address, then serves until Ctrl-C.
            """)
    static let follow = Flag("--follow", help: """
        After the events so far (the last 10, unless --last or --since says), print each new one as it is \
        appended, until Ctrl-C. Lines only.
        """)
    static let app = Option.appBundleID(help: "Only the events of this app.")
    static let download = Option(
        "--download", valueName: "ID", help: "Only the events of this download (and the app's connections).")
    static let since = Option("--since", valueName: "TIME", help: """
        Only the events from TIME: now, a time ago (90s, 5m, 2h, 1d), a time of day in UTC as trace prints it \
        (14:07:02), a date (2026-11-24T14:07:02Z), or the last time an event happened: last-install, \
        last-appLaunched, last-uninstall.
        """)
    static let until = Option("--until", valueName: "TIME", help: "Only the events up to TIME, in the same forms.")
    static let last = Option<Int>.number(
        "--last", valueName: "N", in: 1...Int.max, expected: "a positive number of events",
        help: "Only the last N events that pass the filters.")
    static let json = Flag("--json", help: """
        Print each event as the JSON object system/trace.jsonl stores, one per line, instead of a sentence; \
        with --follow too.
        """)
    static let progress = Flag("--progress", help: """
        Also print the downloadProgress samples (a few a second per transfer), which lines and diagrams leave \
        out; the timeline always draws them.
        """)

    static let signature = CommandSignature(
        name: "trace",
        abstract: "Print the cross-process events, follow them, or draw them as a diagram or a timeline, once or live.",
        discussion: "Reads system/trace.jsonl directly; the service need not be running.",
        // Static declarations share their names with the values they fill; `Self.` picks the declaration.
        arguments: [
            OneOf([mermaid, svg, html, Self.serve, Self.follow]), Self.json, Self.app, Self.download, Self.since, Self.until,
            Self.last, Self.progress,
        ])
}
