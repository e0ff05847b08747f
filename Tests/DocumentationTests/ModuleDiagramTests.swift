/*
Abstract:
Architecture.md's module picture against Package.swift, and the reduction that keeps it legible.
*/

import Foundation
import Testing

@Suite("Architecture.md's module picture")
struct ModuleDiagramTests {
    static let document = "Docs/Architecture.md"

    @Test("The module picture is the one Package.swift draws")
    func pictureMatchesManifest() throws {
        let page = try RepositoryFile.text(Self.document)
        let expected = ModuleDiagram(manifest: .current).text
        guard let start = page.range(of: "```mermaid\n" + ModuleDiagram.marker) else {
            Issue.record("\(Self.document) has no module picture. Add under ## Modules:\n```mermaid\n\(expected)\n```")
            return
        }
        let body = page[page.index(start.lowerBound, offsetBy: "```mermaid\n".count)...]
        let drawn = String(body[..<(body.range(of: "\n```")?.lowerBound ?? body.endIndex)])
        #expect(drawn == expected, "\(Self.document)'s module picture is out of date; replace its block with:\n```mermaid\n\(expected)\n```")
    }

    @Test("A dependency another dependency already leads to is not drawn again")
    func transitiveReduction() {
        let direct: [String: Set<String>] = ["App": ["Kit", "Base"], "Kit": ["Base"], "Base": []]
        #expect(ModuleDiagram.reduced("App", direct: direct) == ["Kit"])
        #expect(ModuleDiagram.reduced("Kit", direct: direct) == ["Base"])
        #expect(ModuleDiagram.reachable(from: "App", direct: direct) == ["Kit", "Base"])
    }

    @Test("Every drawn module sits in one group, and C shims are left out")
    func everyModuleGrouped() {
        let diagram = ModuleDiagram(manifest: .current)
        let text = diagram.text
        for module in diagram.modules {
            let node = ModuleDiagram.identifier(module.name) + "[\""
            #expect(text.components(separatedBy: node).count == 2, "\(module.name) is drawn \(text.components(separatedBy: node).count - 1) times")
        }
        #expect(!text.contains("CSQLite") && ModuleDiagram.isCShim("CInstalledBundleLaunch") && !ModuleDiagram.isCShim("Catalog"))
    }
}
