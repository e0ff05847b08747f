/*
Abstract:
The three commands of ba-package, parsed from the command line and run.
*/

import ArgumentParsing
import AssetPackArchive
import AssetPackFormat
import BackgroundAssetsIPC
import Foundation

/// One command of `ba-package` with its arguments.
struct PackagingCommand {
    enum Kind {
        case package(manifest: URL)
        case template
        case downloadManifest(archives: [URL], baseURL: URL?)
    }

    let kind: Kind
    /// Where to write, as given on the command line, and resolved.
    let output: (text: String, url: URL)?
    let quiet: Bool
    let currentDirectory: URL

    /// Parses a command; `package` is the default when the first argument is not a command's name.
    init(parsing arguments: inout LegacyCommandLineArguments<UsageError>, currentDirectory: URL) throws(UsageError) {
        func path(_ text: String) -> URL { URL(fileURLWithPath: text, relativeTo: currentDirectory).absoluteURL }
        self.currentDirectory = currentDirectory
        output = try arguments.option("--output-path", alias: "-o").map { ($0, path($0)) }
        quiet = arguments.flag("--quiet")
        let baseURL = try arguments.option("--download-base-url")
        switch arguments.optionalPositional() {
        case "template":
            kind = .template
        case "download-manifest":
            guard arguments.optionalPositional() == "create" else {
                throw UsageError("download-manifest takes the command create: "
                    + "ba-package download-manifest create ARCHIVE... -o MANIFEST.")
            }
            var archives: [URL] = []
            while let archive = arguments.optionalPositional() { archives.append(path(archive)) }
            guard !archives.isEmpty else { throw UsageError("download-manifest create needs at least one ARCHIVE.") }
            guard output != nil else { throw UsageError("download-manifest create needs -o MANIFEST, the file to write.") }
            kind = .downloadManifest(archives: archives, baseURL: try Self.baseURL(baseURL))
        case nil:
            try arguments.finish()
            throw UsageError("name a packaging manifest: ba-package MANIFEST -o ARCHIVE (ba-package template writes one).")
        case let name?:
            let manifest = name == "package" ? try arguments.positional("MANIFEST") : name
            guard output != nil else { throw UsageError("package needs -o ARCHIVE, the archive to write.") }
            kind = .package(manifest: path(manifest))
        }
        if baseURL != nil, case .downloadManifest = kind {
            return
        } else if baseURL != nil {
            throw UsageError("--download-base-url belongs to download-manifest create.")
        }
    }

    private static func baseURL(_ text: String?) throws(UsageError) -> URL? {
        guard let text else { return nil }
        if let problem = DownloadDescriptor.urlProblem(text) { throw UsageError("--download-base-url: \(problem)") }
        return URL(string: text)
    }

    /// Runs the command.
    /// - Throws: ``AssetPackArchiveError``, whose description names the file at fault.
    func run(output print: (String) -> Void) throws(AssetPackArchiveError) {
        switch kind {
        case let .package(manifest):
            guard let output else { return }
            let header = try AssetPackPackager.package(manifest: manifest, workingDirectory: currentDirectory, output: output.url)
            if !quiet {
                print("Packaged \(header.assetPackID) version \(header.version) (\(header.downloadPolicy.summary)): "
                    + "\(header.files.count) files, \(ByteCountText.describe(header.installSize)), into \(output.text).")
            }
        case .template:
            guard let output else { return print(PackagingManifestTemplate.text) }
            try write(Data((PackagingManifestTemplate.text + "\n").utf8), to: output.url)
        case let .downloadManifest(archives, baseURL):
            guard let output else { return }
            let manifest = try AssetPackDownloadManifestBuilder.manifest(
                for: archives, downloadBaseURL: baseURL, manifestFolder: output.url.deletingLastPathComponent())
            try write(manifest.encoded(), to: output.url)
            guard !quiet else { return }
            for pack in manifest.assetPacks {
                print("\(pack.id) version \(pack.version), \(pack.downloadPolicy.summary), "
                    + "\(ByteCountText.describe(pack.downloadSize)), at \(pack.url)")
            }
            let count = manifest.assetPacks.count
            print("Wrote the download manifest of \(count) \(count == 1 ? "pack" : "packs") to \(output.text).")
        }
    }

    private func write(_ data: Data, to url: URL) throws(AssetPackArchiveError) {
        if let failure = AtomicFileWriter.write(data, to: url) {
            throw AssetPackArchiveError(.io, path: url.path, problem: "cannot be written (\(failure)).")
        }
    }
}
