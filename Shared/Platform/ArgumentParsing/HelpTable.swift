/*
Abstract:
The rows of a help section: labels in a column, each one's text wrapped beside it.
*/

/// One line of a help section before wrapping: an option, an argument or a subcommand, and what it does.
public struct HelpRow: Sendable, Hashable {
    /// What the reader types, such as `--port PORT` or `list`.
    public var label: String
    /// What it does.
    public var text: String

    /// Creates a row.
    public init(label: String, text: String) {
        self.label = label
        self.text = text
    }
}

/// Lays out help rows as a two-column table, the way every executable's help shows them.
public enum HelpTable {
    /// The widest a help line grows before its text wraps.
    public static let width = 100

    /// The rows, indented by two spaces, texts aligned three spaces after the longest label and
    /// wrapped at ``width`` (never below 40 columns of text).
    /// - Parameters:
    ///   - rows: The rows, in order.
    ///   - wraps: Whether long texts wrap; a list of one-line summaries reads better unwrapped.
    /// - Returns: The lines, joined by newlines, without a final newline.
    public static func render(_ rows: [HelpRow], wraps: Bool = true) -> String {
        let column = 2 + (rows.map(\.label.count).max() ?? 0) + 3
        let textWidth = wraps ? max(40, width - column) : Int.max
        let indent = String(repeating: " ", count: column)
        return rows.map { row in
            let lines = wrap(row.text, width: textWidth)
            guard !lines.isEmpty else { return "  " + row.label }
            let padding = String(repeating: " ", count: column - 2 - row.label.count)
            let first = "  " + row.label + padding + lines[0]
            return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Splits text into lines of at most `width` characters at spaces; a longer word gets a line of its own.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
