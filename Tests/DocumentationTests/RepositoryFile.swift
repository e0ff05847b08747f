/*
Abstract:
The package's own files, found from this test's source, and Markdown tables read out of them.
*/

import Foundation

/// Files of the package, by their path from its root.
enum RepositoryFile {
    /// The package's root folder.
    static let root = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../..").standardized

    /// A file or folder of the package.
    static func url(_ path: String) -> URL { root.appending(path: path) }

    /// The text of a file of the package.
    static func text(_ path: String) throws -> String { try String(contentsOf: url(path), encoding: .utf8) }
}

/// A Markdown table: its lines as written, and its cells.
struct MarkdownTable {
    /// The table's lines, header and separator included.
    let lines: [String]
    /// The range of those lines in the document's lines.
    let lineRange: Range<Int>

    /// The cells of each row below the separator, trimmed.
    var rows: [[String]] { lines.dropFirst(2).map(Self.cells) }

    /// The table whose header line starts with `header`, in `text`.
    init?(in text: String, headerPrefix header: String) {
        let all = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = all.firstIndex(where: { $0.hasPrefix(header) }) else { return nil }
        let end = all[start...].firstIndex { !$0.hasPrefix("|") } ?? all.endIndex
        lines = Array(all[start..<end])
        lineRange = start..<end
    }

    /// The cells of one table line.
    static func cells(_ line: String) -> [String] {
        line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The names written as code (between backticks) in a cell.
    static func codeNames(in cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
