/*
Abstract:
What ba-package takes on its command line: its three commands, each with its arguments, declared once.
*/

import ArgumentParsing
import BackgroundAssetsIPC
import Foundation

extension PackagingCommand {
    static let output = Option("-o", "--output-path", valueName: "PATH", help: "Where to write.")
    static let downloadBaseURL = Option(
        "--download-base-url", valueName: "URL", help: "The https URL (http for localhost) the archives are served under."
    ) { text throws(UsageError) in
        if let problem = DownloadDescriptor.urlProblem(text) { throw UsageError("--download-base-url: \(problem)") }
        guard let url = URL(string: text) else { throw UsageError("--download-base-url: \(text) is not a URL.") }
        return url
    }
    static let quiet = Flag("--quiet", "-q", help: "Print nothing on success.")
    static let assetPackVersions = Option(
        "--asset-pack-versions", valueName: "VERSION", help: """
            Each ARCHIVE's version, in the same order, as Apple's tool takes them (--asset-pack-versions 2 1). Here \
            the version is recorded in the archive when it is packaged, so each must be that version.
            """, repeatable: true
    ) { text throws(UsageError) in
        guard let version = Int(text), (0...Int(Int32.max)).contains(version) else {
            throw UsageError("--asset-pack-versions takes whole numbers from 0 to \(Int32.max), not \(text.debugDescription).")
        }
        return version
    }
    /// Apple's platform flags, each naming the platform the manifest is for, with the name a packaging manifest uses.
    static let platformFlags: [(flag: Flag, platform: String)] = [
        ("iOS", "--ios"), ("iPadOS", "--ipados"), ("macOS", "--macos"), ("tvOS", "--tvos"), ("visionOS", "--visionos"),
    ].map { platform, name in
        (Flag(name, help: "The manifest is for \(platform): every ARCHIVE whose packaging manifest names platforms "
            + "must name \(platform) (or another platform given)."), platform)
    }
    static let manifest = Argument("MANIFEST", help: "A packaging manifest (ba-package template writes one).")
    static let archives = Argument("ARCHIVE", help: "An archive ba-package wrote.", repeatable: true)

    static let package = CommandSignature(
        name: "package",
        abstract: """
            Packages the files MANIFEST selects into ARCHIVE. Selector paths are relative to the current \
            directory and become the files' paths in the pack. "package" may be left out.
            """,
        arguments: [manifest, output.required().inUsage(as: "ARCHIVE"), quiet])
    static let template = CommandSignature(
        name: "template", abstract: "Writes a commented packaging manifest to fill in (standard output without -o).",
        arguments: [output.inUsage(as: "MANIFEST")])
    static let create = CommandSignature(
        name: "create",
        abstract: """
            Verifies each ARCHIVE and writes the download manifest a server publishes: each pack's version, \
            download policy, sizes, SHA-256 and URL. With --download-base-url, a pack's URL is the base plus its \
            identifier (serve the archive under that name); without it, the archive's path relative to the \
            manifest, so a server that serves the manifest's folder serves the archives too.
            """,
        arguments: [archives, output.required().inUsage(as: "MANIFEST"), downloadBaseURL, assetPackVersions]
            + platformFlags.map { $0.flag as any CommandArgument } + [quiet])

    /// The command line with Apple's list form, `--asset-pack-versions 2 1`, written as one option per
    /// version, the form the parser reads: the whole numbers that follow the option are its values.
    static func expandingVersionLists(_ arguments: [String]) -> [String] {
        var expanded: [String] = []
        var remaining = arguments[...]
        while let word = remaining.popFirst() {
            guard word == assetPackVersions.definition.primaryName else {
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

    /// The whole command line of `ba-package`, from which both its parsing and its help come.
    static let signature = CommandSignature(
        name: "ba-package",
        abstract: "Packages asset packs for Background Assets, as Apple's ba-package does.",
        discussion: """
            Exit codes: 0 on success, 1 when a manifest, file or archive is refused (the message names it),
            64 for bad options.
            """,
        subcommands: [
            package, template,
            CommandSignature(name: "download-manifest", abstract: "Download manifests.", subcommands: [create]),
        ],
        defaultSubcommand: "package")
}
