/*
Abstract:
What ba-package takes on its command line: its three commands, each with its arguments declared once, on the property it fills.
*/

import ArgumentParsing
import BackgroundAssetsIPC
import Foundation

/// The command line of `ba-package`, from which both its parsing and its help come.
struct PackagingArguments: ParsableArguments {
    static let configuration = CommandConfiguration(
        name: "ba-package",
        abstract: "Packages asset packs for Background Assets, as Apple's ba-package does.",
        discussion: """
            Exit codes: 0 on success, 1 when a manifest, file or archive is refused (the message names it),
            64 for bad options.
            """,
        subcommands: [Package.self, Template.self, DownloadManifest.self],
        defaultSubcommand: "package")

    /// `ba-package [package] MANIFEST -o ARCHIVE [--quiet]`.
    struct Package: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "package",
            abstract: """
                Packages the files MANIFEST selects into ARCHIVE. Selector paths are relative to the current \
                directory and become the files' paths in the pack. "package" may be left out.
                """)

        @Argument("MANIFEST", help: "A packaging manifest (ba-package template writes one).")
        var manifest: String
        @Option("-o", "--output-path", valueName: "PATH", help: "Where to write.", traits: [.usageValueName("ARCHIVE")])
        var output: String
        @Flag("--quiet", "-q", help: "Print nothing on success.")
        var quiet: Bool
    }

    /// `ba-package template [-o MANIFEST]`.
    struct Template: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "template", abstract: "Writes a commented packaging manifest to fill in (standard output without -o).")

        @Option("-o", "--output-path", valueName: "PATH", help: "Where to write.", traits: [.usageValueName("MANIFEST")])
        var output: String?
    }

    /// `ba-package download-manifest`, which only groups `create`.
    struct DownloadManifest: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "download-manifest", abstract: "Download manifests.", subcommands: [Create.self])
    }

    /// `ba-package download-manifest create ARCHIVE... -o MANIFEST ...`.
    struct Create: ParsableArguments {
        static let configuration = CommandConfiguration(
            name: "create",
            abstract: """
                Verifies each ARCHIVE and writes the download manifest a server publishes: each pack's version, \
                download policy, sizes, SHA-256 and URL. With --download-base-url, a pack's URL is the base plus its \
                identifier (serve the archive under that name); without it, the archive's path relative to the \
                manifest, so a server that serves the manifest's folder serves the archives too.
                """)

        @Argument("ARCHIVE", help: "An archive ba-package wrote.")
        var archives: [String]
        @Option("-o", "--output-path", valueName: "PATH", help: "Where to write.", traits: [.usageValueName("MANIFEST")])
        var output: String
        @Option(
            "--download-base-url", valueName: "URL", help: "The https URL (http for localhost) the archives are served under.",
            as: ArgumentConversion { text throws(UsageError) in
                if let problem = DownloadDescriptor.urlProblem(text) { throw UsageError("--download-base-url: \(problem)") }
                guard let url = URL(string: text) else { throw UsageError("--download-base-url: \(text) is not a URL.") }
                return url
            })
        var downloadBaseURL: URL?
        @Option(
            "--asset-pack-versions", valueName: "VERSION", help: """
                Each ARCHIVE's version, in the same order, as Apple's tool takes them (--asset-pack-versions 2 1). Here \
                the version is recorded in the archive when it is packaged, so each must be that version.
                """,
            as: ArgumentConversion { text throws(UsageError) in
                guard let version = Int(text), (0...Int(Int32.max)).contains(version) else {
                    throw UsageError("--asset-pack-versions takes whole numbers from 0 to \(Int32.max), not \(text.debugDescription).")
                }
                return version
            })
        var assetPackVersions: [Int]
        // Apple's platform flags, each naming the platform the manifest is for.
        @Flag("--ios", help: platformHelp("iOS"))
        var iOS: Bool
        @Flag("--ipados", help: platformHelp("iPadOS"))
        var iPadOS: Bool
        @Flag("--macos", help: platformHelp("macOS"))
        var macOS: Bool
        @Flag("--tvos", help: platformHelp("tvOS"))
        var tvOS: Bool
        @Flag("--visionos", help: platformHelp("visionOS"))
        var visionOS: Bool
        @Flag("--quiet", "-q", help: "Print nothing on success.")
        var quiet: Bool

        /// The platforms the flags name, as a packaging manifest names them.
        var platforms: Set<String> {
            let flags = [("iOS", iOS), ("iPadOS", iPadOS), ("macOS", macOS), ("tvOS", tvOS), ("visionOS", visionOS)]
            return Set(flags.filter(\.1).map(\.0))
        }

        func validate() throws(UsageError) {
            if !assetPackVersions.isEmpty, assetPackVersions.count != archives.count {
                throw UsageError("--asset-pack-versions gives \(assetPackVersions.count) version(s) for \(archives.count) "
                    + "archive(s); give one version for each ARCHIVE, in the same order.")
            }
        }
    }
}

/// The help of a platform flag.
private func platformHelp(_ platform: String) -> String {
    "The manifest is for \(platform): every ARCHIVE whose packaging manifest names platforms "
        + "must name \(platform) (or another platform given)."
}

extension PackagingArguments.Create {
    /// The command line with Apple's list form, `--asset-pack-versions 2 1`, written as one option per
    /// version, the form the parser reads: the whole numbers that follow the option are its values.
    static func expandingVersionLists(_ arguments: [String]) -> [String] {
        var expanded: [String] = []
        var remaining = arguments[...]
        let option = Self()._assetPackVersions.definition.primaryName
        while let word = remaining.popFirst() {
            guard word == option else {
                expanded.append(word)
                if word == "--" { expanded += remaining; break }
                continue
            }
            expanded.append(word)
            // The first value is taken whatever it is, so a bad one is refused by name, not read as an archive.
            if let first = remaining.popFirst() { expanded.append(first) }
            while let next = remaining.first, !next.isEmpty, next.allSatisfy(\.isNumber) {
                expanded += [word, next]
                remaining = remaining.dropFirst()
            }
        }
        return expanded
    }
}
