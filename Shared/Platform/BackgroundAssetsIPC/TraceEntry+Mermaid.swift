/*
Abstract:
Renders trace entries as a Mermaid sequence diagram, for the docs and for backgroundassets-debug trace.
*/

extension TraceEntry {
    /// A Mermaid `sequenceDiagram` of the entries, participants in order of first appearance.
    ///
    /// An event that reached nobody is drawn as a note over its sender, so the diagram shows that
    /// it happened and that no process was there to receive it.
    /// - Parameter entries: The entries to draw, usually filtered to one app.
    /// - Returns: Mermaid source, one line per entry.
    public static func mermaidDiagram(of entries: [TraceEntry]) -> String {
        var participants: [String] = []
        func alias(_ name: String) -> String {
            if let index = participants.firstIndex(of: name) { return "P\(index)" }
            participants.append(name)
            return "P\(participants.count - 1)"
        }
        var lines: [String] = []
        for entry in entries {
            let subject = entry.download ?? entry.signpost?.name
            let label = clean([entry.event, subject, entry.detail.map { "(\($0.prefix(100)))" }]
                .compactMap { $0 }.joined(separator: " "))
            if entry.to == "nobody" {
                lines.append("    Note over \(alias(entry.from)): \(label), no process to receive it")
            } else {
                for receiver in entry.to.split(separator: "+").map(String.init) {
                    lines.append("    \(alias(entry.from))->>\(alias(receiver)): \(label)")
                }
            }
        }
        let declarations = participants.enumerated().map { "    participant P\($0.offset) as \(clean($0.element))" }
        return (["sequenceDiagram"] + declarations + lines).joined(separator: "\n") + "\n"
    }

    /// Text Mermaid reads literally: no statement separators, comments or entity codes.
    private static func clean(_ text: String) -> String {
        String(text.map { ";#%\n\r".contains($0) ? " " : $0 })
    }
}
