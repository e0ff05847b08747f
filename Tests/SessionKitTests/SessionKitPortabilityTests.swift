/*
Abstract:
Checks that SessionKit stays copyable into an Xcode project: it imports Foundation, CryptoKit or its Linux fallback, and nothing else.
*/

import Foundation
import Testing

@Suite("SessionKit compiles unchanged on Apple platforms")
struct SessionKitPortabilityTests {
    /// The Linux-only imports, each allowed only inside the `#if` that keeps it off Apple platforms.
    static let linuxOnly: [String: String] = [
        "BackgroundAssets": "#if !canImport(Darwin)",
        "BackgroundAssetsIPC": "#if !canImport(Darwin)",
        "TLS": "#if !canImport(Darwin)",
        "HTTPCore": "#if !canImport(Darwin)",
        "CCrypto": "#else",  // of `#if canImport(CryptoKit)`
    ]

    @Test("Every import is Foundation, CryptoKit, or a Linux stand-in behind its #if")
    func imports() throws {
        let folder = URL(filePath: #filePath).deletingLastPathComponent()
            .appending(path: "../../Shared/SessionKit").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let lines = try String(contentsOf: folder.appending(path: file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var conditions: [String] = []
            for line in lines {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("#if") { conditions.append(trimmed) }
                if trimmed.hasPrefix("#else") { conditions.append("#else") }
                if trimmed.hasPrefix("#endif") {
                    while let last = conditions.popLast(), last == "#else" {}
                }
                guard trimmed.hasPrefix("import ") || trimmed.hasPrefix("@_exported import ") else { continue }
                let module = String(trimmed.split(separator: " ").last ?? "")
                switch module {
                case "Foundation":
                    continue
                case "CryptoKit":
                    #expect(conditions.last == "#if canImport(CryptoKit)", "\(file): CryptoKit outside its #if")
                default:
                    let required = try #require(Self.linuxOnly[module], "\(file) imports \(module), which an Xcode project does not have")
                    #expect(conditions.last == required, "\(file): import \(module) must be inside \(required)")
                }
            }
        }
    }
}
