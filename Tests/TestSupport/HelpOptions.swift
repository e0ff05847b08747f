/*
Abstract:
The options a help text lists, read from its rows, so a test can hand each one back to the parser.
*/

import Foundation

/// Reads the option rows of a help text: lines that start with two spaces and a dash, such as
/// `  -o, --output-path PATH   Where to write.`
public enum HelpOptions {
    /// Every spelling of every option row, in order, such as `-o` and `--output-path`.
    /// - Parameter help: The whole help text.
    public static func spellings(inHelp help: String) -> [String] {
        labels(inHelp: help).flatMap { words(of: $0).filter { $0.hasPrefix("-") } }
    }

    /// A command line that gives the option as its row shows it: the spelling, then the row's value
    /// name as the value when it has one (`--port PORT`).
    /// - Parameters:
    ///   - spelling: One of ``spellings(inHelp:)``.
    ///   - help: The whole help text.
    public static func line(using spelling: String, inHelp help: String) -> [String] {
        guard let words = labels(inHelp: help).map(words(of:)).first(where: { $0.contains(spelling) }),
              let value = words.last, !value.hasPrefix("-")
        else { return [spelling] }
        return [spelling, value]
    }

    private static func words(of label: String) -> [String] {
        label.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
    }

    /// A word no help lists. Given after an option, it is what the parser refuses when the option (and
    /// its value) was read, and the parser names the option instead when it does not know it.
    public static let unlistedWord = "--not-in-the-help"

    /// The sentence every executable of the package refuses ``unlistedWord`` with.
    public static let unlistedRefusal = "Unknown argument \"\(unlistedWord)\"."

    /// For every option the help lists, `--help` aside, a command line that gives it (with its row's
    /// value name as the value), then ``unlistedWord``.
    /// - Parameter help: The whole help text.
    public static func probes(inHelp help: String) -> [[String]] {
        spellings(inHelp: help).filter { !["-h", "--help"].contains($0) }.map { line(using: $0, inHelp: help) + [unlistedWord] }
    }

    /// The label of each option row: its text up to the gap before its description.
    static func labels(inHelp help: String) -> [String] {
        help.split(separator: "\n").filter { $0.hasPrefix("  -") }.map { line in
            let label = line.dropFirst(2)
            let end = label.range(of: "   ")?.lowerBound ?? label.endIndex
            return String(label[..<end])
        }
    }
}
