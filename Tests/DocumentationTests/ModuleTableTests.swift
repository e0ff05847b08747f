/*
Abstract:
Architecture.md's module table against Package.swift: a row for every module, and each row's dependencies as declared.
*/

import Foundation
import Testing

@Suite("Architecture.md's module table")
struct ModuleTableTests {
    static let document = "Docs/Architecture.md"
    static let header = "| Module | Depends on |"

    func table() throws -> MarkdownTable {
        try #require(
            MarkdownTable(in: try RepositoryFile.text(Self.document), headerPrefix: Self.header),
            "\(Self.document) has no table starting \(Self.header)")
    }

    @Test("Every module of Package.swift has a row, and every row is a module")
    func rowForEveryModule() throws {
        let manifest = PackageManifest.current
        let shipped = manifest.targets.filter(\.isShipped)
        #expect(shipped.count > 20, "Package.swift was not read: \(shipped.map(\.name))")
        let rows = try table().rows
        let named = rows.compactMap { MarkdownTable.codeNames(in: $0[0]).first }
        for target in shipped where !named.contains(manifest.documentedName(of: target)) {
            let name = manifest.documentedName(of: target)
            Issue.record("""
                \(Self.document) has no row for the module `\(name)` (\(target.path)). Add: \
                | `\(name)` | \(Self.cell(for: target)) | What it is, in a sentence. |
                """)
        }
        for name in named where manifest.target(documentedAs: name)?.isShipped != true {
            Issue.record("""
                \(Self.document)'s module table has a row for `\(name)`, which Package.swift does not declare; \
                remove the row or correct the name.
                """)
        }
    }

    @Test("Each row names exactly the dependencies Package.swift declares")
    func dependenciesAsDeclared() throws {
        let manifest = PackageManifest.current
        for row in try table().rows {
            guard let name = MarkdownTable.codeNames(in: row[0]).first,
                let target = manifest.target(documentedAs: name), row.count > 1
            else {
                continue
            }
            let written = Set(MarkdownTable.codeNames(in: row[1]))
            let declared = Set(target.dependencies.map { manifest.target($0).map(manifest.documentedName) ?? $0 })
            guard written != declared else { continue }
            let missing = declared.subtracting(written).sorted().map { "`\($0)`" }
            let extra = written.subtracting(declared).sorted().map { "`\($0)`" }
            Issue.record("""
                \(Self.document), module table, row `\(name)`: \
                \(missing.isEmpty ? "" : "Package.swift also declares \(missing.joined(separator: ", ")); ")\
                \(extra.isEmpty ? "" : "it does not declare \(extra.joined(separator: ", ")); ")\
                write in the Depends-on cell: \(Self.cell(for: target)) (words around the names may stay).
                """)
        }
    }

    @Test("Every folder the folder table names exists")
    func foldersExist() throws {
        let table = try #require(
            MarkdownTable(in: try RepositoryFile.text(Self.document), headerPrefix: "| Folder | What it is |"),
            "\(Self.document) has no folder table")
        let named = table.rows.flatMap { MarkdownTable.codeNames(in: $0[0]) }.filter { $0.hasSuffix("/") }
        #expect(named.count > 5)
        for folder in named {
            #expect(FileManager.default.fileExists(atPath: RepositoryFile.url(folder).path),
                    "\(Self.document)'s folder table names \(folder), which does not exist; correct or remove the row")
        }
        for parent in ["Shared", "Server"] {
            let children = try FileManager.default.contentsOfDirectory(atPath: RepositoryFile.url(parent).path)
            for child in children.sorted() where !named.contains("\(parent)/\(child)/") {
                Issue.record("\(Self.document)'s folder table has no row for \(parent)/\(child)/; add one saying what it holds")
            }
        }
    }

    /// The Depends-on cell a row should have: each dependency in backticks, or what a module with none is.
    static func cell(for target: PackageManifest.Target) -> String {
        guard target.dependencies.isEmpty else { return target.dependencies.map { "`\($0)`" }.joined(separator: ", ") }
        if target.kind == .system { return "(C, the system's library)" }
        let files = (try? FileManager.default.subpathsOfDirectory(atPath: RepositoryFile.url(target.path).path)) ?? []
        return files.contains { $0.hasSuffix(".c") } ? "(C)" : "Foundation"
    }
}
