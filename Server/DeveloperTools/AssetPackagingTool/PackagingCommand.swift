/*
Abstract:
The three commands of ba-package, read from the parsed command line and run.
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
        case downloadManifest(archives: [URL], baseURL: URL?, versions: [Int]?, platforms: Set<String>)
    }

    let kind: Kind
    /// Where to write, as given on the command line, and resolved.
    let output: (text: String, url: URL)?
    let quiet: Bool
    let currentDirectory: URL

    /// Reads a parsed command line.
    /// - Throws: ``UsageError`` naming the argument at fault.
    init(parsing arguments: CommandLineArguments<UsageError>, currentDirectory: URL) throws(UsageError) {
        func path(_ text: String) -> URL { URL(fileURLWithPath: text, relativeTo: currentDirectory).absoluteURL }
        self.currentDirectory = currentDirectory
        if let package = try arguments.values(of: PackagingArguments.Package.self) {
            kind = .package(manifest: path(package.manifest))
            (output, quiet) = ((package.output, path(package.output)), package.quiet)
        } else if let template = try arguments.values(of: PackagingArguments.Template.self) {
            kind = .template
            (output, quiet) = (template.output.map { ($0, path($0)) }, false)
        } else if let create = try arguments.values(of: PackagingArguments.Create.self) {
            kind = .downloadManifest(
                archives: create.archives.map(path), baseURL: create.downloadBaseURL,
                versions: create.assetPackVersions.isEmpty ? nil : create.assetPackVersions, platforms: create.platforms)
            (output, quiet) = ((create.output, path(create.output)), create.quiet)
        } else {
            // The parser selects one of the commands; a command line that names none was refused.
            throw UsageError("ba-package needs a command: package, template, download-manifest create.")
        }
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
                    + "\(header.files.count) \(header.files.count == 1 ? "file" : "files"), "
                    + "\(ByteCountText.describe(header.installSize)), into \(output.text).")
            }
        case .template:
            guard let output else { return print(PackagingManifestTemplate.text) }
            try write(Data((PackagingManifestTemplate.text + "\n").utf8), to: output.url)
        case let .downloadManifest(archives, baseURL, versions, platforms):
            guard let output else { return }
            let manifest = try AssetPackDownloadManifestBuilder.manifest(
                for: archives, downloadBaseURL: baseURL, manifestFolder: output.url.deletingLastPathComponent(),
                versions: versions, platforms: platforms)
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
