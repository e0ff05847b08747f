/*
Abstract:
What `trace` makes of its command line: its help texts, the one output chosen, and that JSON goes with lines only.
*/

extension TraceCommand {
    static let configuration = CommandConfiguration(
        name: "trace",
        abstract: "Print the cross-process events, follow them, or draw them as a diagram or a timeline, once or live.",
        discussion: "Reads system/trace.jsonl directly; the service need not be running.")

    /// What to make of the events; the signature lets at most one output through.
    var output: Output {
        if mermaid {
            .mermaid
        } else if follow {
            .follow
        } else if let svg {
            .svg(path: svg)
        } else if let html {
            .html(path: html)
        } else if let serve {
            .serve(port: serve)
        } else {
            .lines
        }
    }

    func validate() throws(UsageError) {
        // JSON is a form of the lines; a diagram or a picture has a form of its own.
        let drawing: String? = switch output {
        case .lines, .follow: nil
        case .mermaid: "--mermaid"
        case .svg: "--svg"
        case .html: "--html"
        case .serve: "--serve"
        }
        if json, let drawing {
            throw UsageError("--json and \(drawing) do not go together; choose one.")
        }
    }
}
