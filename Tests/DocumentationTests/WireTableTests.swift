/*
Abstract:
Architecture.md's wire tables, made from the protocol's own list of cases and WireProtocol.swift's table of their meanings.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

/// The request and event tables of Architecture.md are generated, not written.
///
/// The cases are the protocol's (`ClientRequest.wireNames`, `ServerEvent.CodingKeys`, in their
/// order); what each means and answers is the row of the table in `WireProtocol.swift`'s
/// documentation, the one place a new message is described. A table that differs fails here,
/// naming the row and the line to write; `UPDATE_DOCS=1 swift test --filter WireTableTests` writes
/// them (one table after the other: both rewrite the same file).
@Suite("Architecture.md's wire tables", .serialized)
struct WireTableTests {
    static let document = "Docs/Architecture.md"
    static let source = "Shared/Platform/BackgroundAssetsIPC/WireProtocol.swift"
    static let isUpdating = ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1"

    /// The rows of `WireProtocol.swift`'s tables, by the message's name.
    static func sourceRows() throws -> [String: [String]] {
        let rows = try RepositoryFile.text(source).split(separator: "\n")
            .filter { $0.hasPrefix("/// | `") }
            .map { MarkdownTable.cells(String($0.dropFirst(4))) }
        return Dictionary(rows.map { (MarkdownTable.codeNames(in: $0[0]).first ?? $0[0], $0) }) { first, _ in first }
    }

    @Test("WireProtocol.swift's tables have one row for every request and event, and no other")
    func sourceTableComplete() throws {
        let rows = try Self.sourceRows()
        let requests = ClientRequest.wireNames
        let events = ServerEvent.CodingKeys.allCases.map(\.rawValue)
        let responses = Set(ServerResponse.CodingKeys.allCases.map(\.rawValue))
        for name in requests {
            guard let row = rows[name] else {
                Issue.record("\(Self.source) has no row for the request \(name); add /// | `\(name)` | `RESPONSE` | what it asks |")
                continue
            }
            let response = row.count == 3 ? MarkdownTable.codeNames(in: row[1]).first : nil
            #expect(
                response.map(responses.contains) == true,
                "\(Self.source): the request \(name) is answered with \(row.count == 3 ? row[1] : "nothing"), not a case of ServerResponse")
        }
        for name in events where rows[name]?.count != 2 {
            Issue.record("\(Self.source) has no row for the event \(name); add /// | `\(name)` | when it is sent |")
        }
        for name in rows.keys where !requests.contains(name) && !events.contains(name) {
            Issue.record("\(Self.source)'s tables describe \(name), which is neither a request nor an event; remove the row")
        }
    }

    @Test(
        "Each wire table of Architecture.md lists the protocol's cases in order, as WireProtocol.swift describes them",
        arguments: Kind.allCases)
    func generated(kind: Kind) throws {
        let rows = try Self.sourceRows()
        let expected = kind.header + kind.names.compactMap { name in rows[name].map { kind.line(name: name, row: $0) } }
        var lines = try RepositoryFile.text(Self.document).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let table = try #require(
            MarkdownTable(in: lines.joined(separator: "\n"), headerPrefix: kind.header[0]),
            """
            \(Self.document) has no table starting \(kind.header[0]); put the \(kind) table there \
            (UPDATE_DOCS=1 rewrites only an existing one)
            """)
        if Self.isUpdating, table.lines != expected {
            lines.replaceSubrange(table.lineRange, with: expected)
            try lines.joined(separator: "\n").write(to: RepositoryFile.url(Self.document), atomically: true, encoding: .utf8)
            return
        }
        for index in 0..<max(expected.count, table.lines.count) {
            let written = index < table.lines.count ? table.lines[index] : nil
            let wanted = index < expected.count ? expected[index] : nil
            guard written != wanted else { continue }
            Issue.record("""
                \(Self.document), \(kind) table, line \(table.lineRange.lowerBound + index + 1): \
                \(written.map { "it says \($0)" } ?? "it ends early"); \
                \(wanted.map { "write \($0)" } ?? "remove the line"). \
                UPDATE_DOCS=1 swift test --filter WireTableTests rewrites the table from \(Self.source).
                """)
            return
        }
    }

    /// The two tables.
    enum Kind: String, CustomStringConvertible, CaseIterable, Sendable {
        case requests = "request"
        case events = "event"

        var description: String { rawValue }

        var header: [String] {
            switch self {
            case .requests: ["| Request | Response | Meaning |", "| --- | --- | --- |"]
            case .events: ["| Event | Sent when |", "| --- | --- |"]
            }
        }

        var names: [String] {
            switch self {
            case .requests: ClientRequest.wireNames
            case .events: ServerEvent.CodingKeys.allCases.map(\.rawValue)
            }
        }

        /// The row of Architecture.md: `WireProtocol.swift`'s cells, the last one as a sentence.
        func line(name: String, row: [String]) -> String {
            let cells = ["`\(name)`"] + row.dropFirst().dropLast() + [Self.sentence(row.last ?? "")]
            return "| " + cells.joined(separator: " | ") + " |"
        }

        /// A description as a sentence: a capital first letter and a full stop.
        static func sentence(_ text: String) -> String {
            guard let first = text.first else { return text }
            let capitalized = first.isLowercase ? first.uppercased() + text.dropFirst() : text
            return capitalized.hasSuffix(".") ? capitalized : capitalized + "."
        }
    }
}
