/*
Abstract:
Architecture.md's module picture, drawn from Package.swift: the shipped modules by folder, each dependency drawn once.
*/

/// A Mermaid flowchart of the package's shipped modules, grouped by the folder that says whose code
/// each is, with only the dependencies no longer path already implies (a transitive reduction), so
/// the picture shows the layers rather than every import.
struct ModuleDiagram {
    /// The first line of the diagram, which finds it in the page.
    static let marker = "%% The modules of Package.swift, drawn by ModuleDiagramTests"

    /// The groups, in the order drawn, with the folders that belong to each.
    static let groups: [(title: String, folders: [String])] = [
        ("The samples", ["App", "Extension", "Shared/SessionKit"]),
        ("Apple's frameworks", ["Shared/Frameworks"]),
        ("Shared by both sides", ["Shared/Platform"]),
        ("The system", ["Server/System"]),
        ("The network and developer tools", ["Server"]),
    ]

    let manifest: PackageManifest

    /// The modules drawn: shipped ones, without the C libraries and shims underneath.
    var modules: [PackageManifest.Target] {
        manifest.targets.filter { $0.isShipped && $0.kind != .system && !Self.isCShim($0.name) }
    }

    /// The diagram's text, between the fences.
    var text: String {
        let drawn = modules
        let names = Set(drawn.map(\.name))
        var lines = [Self.marker, "flowchart TB"]
        var placed = Set<String>()
        for (index, group) in Self.groups.enumerated() {
            let members = drawn.filter { target in
                !placed.contains(target.name)
                    && group.folders.contains { target.path == $0 || target.path.hasPrefix($0 + "/") }
            }
            guard !members.isEmpty else { continue }
            lines.append("    subgraph group\(index)[\"\(group.title)\"]")
            for target in members.sorted(by: { manifest.documentedName(of: $0) < manifest.documentedName(of: $1) }) {
                lines.append("        \(Self.identifier(target.name))[\"\(manifest.documentedName(of: target))\"]")
                placed.insert(target.name)
            }
            lines.append("    end")
        }
        let direct = Dictionary(uniqueKeysWithValues: drawn.map { ($0.name, Set($0.dependencies).intersection(names)) })
        for target in drawn.sorted(by: { $0.name < $1.name }) {
            for dependency in Self.reduced(target.name, direct: direct).sorted() {
                lines.append("    \(Self.identifier(target.name)) --> \(Self.identifier(dependency))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The modules a module depends on that no other of its dependencies already leads to.
    static func reduced(_ module: String, direct: [String: Set<String>]) -> Set<String> {
        let dependencies = direct[module] ?? []
        let reachedThroughOthers = dependencies.reduce(into: Set<String>()) { reached, dependency in
            reached.formUnion(reachable(from: dependency, direct: direct))
        }
        return dependencies.subtracting(reachedThroughOthers)
    }

    /// Every module a module leads to, itself excluded.
    static func reachable(from module: String, direct: [String: Set<String>]) -> Set<String> {
        var seen = Set<String>()
        var pending = Array(direct[module] ?? [])
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            pending.append(contentsOf: direct[next] ?? [])
        }
        return seen
    }

    /// Whether a module is a C library or shim (`CSQLite`, `CInstalledBundleLaunch`): drawn, they
    /// would double the picture's edges and say nothing about the Swift layers.
    static func isCShim(_ name: String) -> Bool {
        let characters = Array(name)
        return characters.count > 1 && characters[0] == "C" && characters[1].isUppercase
    }

    /// A Mermaid node identifier for a module name (hyphens are not allowed in identifiers).
    static func identifier(_ name: String) -> String {
        "m_" + name.replacingOccurrences(of: "-", with: "_")
    }
}
