/*
Abstract:
Package.swift read as text: each target's name, kind, folder and dependencies, without running SwiftPM.
*/

import Foundation

/// The targets Package.swift declares, found in its text.
///
/// `swift package dump-package` would give the same in JSON, in about 0.4 s (0.8 s with a manifest it
/// has not compiled yet), but it waits for the lock on `.build` that `swift test` holds, so a test
/// cannot run it in the package's own build folder. The manifest keeps to one shape (`.target(name:
/// "X", dependencies: [...], path: "...")`, conditions as `.target(name: "X", condition: ...)`), which
/// this reads; a target it cannot read fails the tests that use it, naming the target.
struct PackageManifest {
    /// One target of the manifest.
    struct Target: Equatable {
        enum Kind: String {
            case library = "target", executable = "executableTarget", test = "testTarget", system = "systemLibrary"
        }

        var name: String
        var kind: Kind
        var path: String
        /// The names of the targets it depends on, conditional ones included.
        var dependencies: [String]

        /// Whether it belongs to the product rather than to the tests (test programs included).
        var isShipped: Bool { kind != .test && !path.hasPrefix("Tests/") }
    }

    let targets: [Target]

    /// The manifest of this package.
    static let current: PackageManifest = {
        do {
            return try PackageManifest(text: String(contentsOf: RepositoryFile.url("Package.swift"), encoding: .utf8))
        } catch {
            fatalError("Package.swift cannot be read: \(error)")
        }
    }()

    /// Reads the targets from the manifest's text.
    init(text: String) throws {
        let code = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { line[..<$0.lowerBound] } ?? line }
            .joined(separator: "\n")
        var targets: [Target] = []
        var rest = code[...]
        // Targets open their call at the end of a line; a dependency's `.target(name:` never does.
        while let call = rest.range(of: #"\.(target|executableTarget|testTarget|systemLibrary)\(\s*\n"#, options: .regularExpression) {
            let kindName = rest[call].dropFirst().prefix { $0 != "(" }
            let body = try Self.balanced(rest[call.upperBound...], open: "(", close: ")")
            rest = rest[body.endIndex...]
            guard let kind = Target.Kind(rawValue: String(kindName)),
                  let name = Self.string(labelled: "name", in: body), let path = Self.string(labelled: "path", in: body) else {
                throw ManifestError("a .\(kindName)( call without a name and a path: \(body.prefix(80))")
            }
            var dependencies: [String] = []
            if let start = body.range(of: "dependencies: [") {
                let list = try Self.balanced(body[start.upperBound...], open: "[", close: "]")
                dependencies = Self.strings(in: list)
            }
            targets.append(Target(name: name, kind: kind, path: path, dependencies: dependencies))
        }
        self.targets = targets
    }

    /// The target with this name.
    func target(_ name: String) -> Target? { targets.first { $0.name == name } }

    /// The names Docs/ gives the sample's app and extension, by their folders. A copy renamed as
    /// Docs/UsingAsTemplate.md says gives the two targets its own names but keeps the sample's pages,
    /// which go on describing the sample; the tables are read with these names standing for its targets.
    static let sampleNames = ["App": "wwdc-sessions", "Extension": "wwdc-sessions-extension"]

    /// The name Docs/ writes for a target: the sample's, for the app and the extension, whatever they are renamed to.
    func documentedName(of target: Target) -> String { Self.sampleNames[target.path] ?? target.name }

    /// The target Docs/ writes by this name.
    func target(documentedAs name: String) -> Target? { targets.first { documentedName(of: $0) == name } }

    /// The text from just after an opening bracket up to its matching closing one.
    private static func balanced(_ text: Substring, open: Character, close: Character) throws -> Substring {
        var depth = 1
        var inString = false
        for index in text.indices {
            let character = text[index]
            if character == "\"" { inString.toggle() }
            guard !inString else { continue }
            if character == open { depth += 1 }
            if character == close { depth -= 1 }
            if depth == 0 { return text[text.startIndex..<index] }
        }
        throw ManifestError("an unclosed \(open) after \(text.prefix(80))")
    }

    private static func string(labelled label: String, in text: Substring) -> String? {
        guard let start = text.range(of: "\(label): \"") else { return nil }
        return String(text[start.upperBound...].prefix { $0 != "\"" })
    }

    private static func strings(in text: Substring) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}

/// Package.swift has a shape these tests cannot read.
struct ManifestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = "Package.swift: " + description }
}
