/*
Abstract:
Every module a target imports is a dependency Package.swift declares, and the dependencies run the way Architecture.md says.
*/

import Foundation
import Testing

@Suite("Imports match Package.swift")
struct DeclaredImportsTests {
    @Test("A target imports only this package's modules it declares as dependencies")
    func importsAreDeclared() throws {
        let manifest = PackageManifest.current
        let names = Set(manifest.targets.map(\.name))
        for target in manifest.targets where target.kind != .system {
            // A target inside another's folder (the game sample in App/) owns its own files.
            let nested = manifest.targets.map(\.path).filter { $0 != target.path && $0.hasPrefix(target.path + "/") }
            for file in try Self.swiftFiles(in: target.path) where !nested.contains(where: { file.hasPrefix($0 + "/") }) {
                for module in try Self.imports(in: file) where names.contains(module) && module != target.name {
                    #expect(
                        target.dependencies.contains(module),
                        """
                        \(file) imports \(module), which Package.swift does not declare for \(target.name) \
                        (SwiftPM lets it through when another dependency links it); add "\(module)" to its dependencies.
                        """)
                }
            }
        }
    }

    @Test(
        "Shared/ never depends on Server/, and the app and the extension only on Shared/",
        arguments: ["Shared/", "App", "Extension"])
    func dependencyDirection(folder: String) {
        let manifest = PackageManifest.current
        for target in manifest.targets where target.path.hasPrefix(folder) {
            for dependency in target.dependencies {
                let path = manifest.target(dependency)?.path ?? ""
                #expect(
                    path.hasPrefix("Shared/"),
                    """
                    \(target.name) (\(target.path)) depends on \(dependency) (\(path)); \
                    Architecture.md's Modules section says why it must not
                    """)
            }
        }
    }

    /// The Swift files under a target's folder, by their path from the package's root.
    static func swiftFiles(in folder: String) throws -> [String] {
        let root = RepositoryFile.url(folder)
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
    }

    /// The modules a file imports at its top level (an import inside a string, as a test's fixture, is not one).
    static func imports(in file: String) throws -> [String] {
        try RepositoryFile.text(file).split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let index = words.firstIndex(of: "import"), index <= 1, line.first != " " else { return nil }
            guard index == 0 || words[0].hasPrefix("@") || ["public", "package", "internal"].contains(String(words[0])) else {
                return nil
            }
            return words.count > index + 1 ? String(words[index + 1]) : nil
        }
    }
}
