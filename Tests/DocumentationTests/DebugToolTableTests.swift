/*
Abstract:
README.md's table of the debug tool's subcommands against the tool itself: a row for every subcommand, and no row for one it lacks.
*/

import BackgroundAssetsDebugTool
import Foundation
import Testing

@Suite("README.md's table of debug-tool subcommands")
struct DebugToolTableTests {
    static let document = "README.md"
    static let header = "| Command | What it does |"

    @Test("Every subcommand of backgroundassets-debug --help has a row, and every row is a subcommand")
    func rowForEverySubcommand() throws {
        let table = try #require(
            MarkdownTable(in: try RepositoryFile.text(Self.document), headerPrefix: Self.header),
            "\(Self.document) has no table starting \(Self.header)")
        let rows = table.rows.compactMap { MarkdownTable.codeNames(in: $0[0]).first }
        let subcommands = DebugTool.subcommands.map { $0.name }
        #expect(subcommands.count > 10, "the tool's subcommands were not read: \(subcommands)")
        for name in subcommands where !rows.contains(name) {
            Issue.record("\(Self.document)'s debug-tool table has no row for `\(name)`; add `| \\`\(name)\\` | … |`.")
        }
        for row in rows where !subcommands.contains(row) {
            Issue.record("\(Self.document)'s debug-tool table lists `\(row)`, which backgroundassets-debug does not have.")
        }
        // The usage lists them in this order too, so the table reads as `--help` does.
        #expect(rows.filter(subcommands.contains) == subcommands, "\(rows)")
    }
}
