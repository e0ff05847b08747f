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
    static let quiet = Flag("--quiet", help: "Print nothing on success.")
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
        arguments: [archives, output.required().inUsage(as: "MANIFEST"), downloadBaseURL, quiet])

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
