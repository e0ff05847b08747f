/*
Abstract:
The ba-package command: packages folders into asset packs, writes the manifest template and the download manifest.
*/

import ArgumentParsing
import Foundation

/// The commands of `ba-package`, the Linux counterpart of Apple's `xcrun ba-package`.
public enum AssetPackagingTool {
    /// The usage text, which `--help` prints and every usage error ends with.
    public static let usage = """
        Usage: ba-package [package] MANIFEST -o ARCHIVE [--quiet]
               ba-package template [-o MANIFEST]
               ba-package download-manifest create ARCHIVE... -o MANIFEST [--download-base-url URL] [--quiet]

        Packages asset packs for Background Assets, as Apple's ba-package does.

        Commands:
          package                   Packages the files MANIFEST selects into ARCHIVE. Selector paths are
                                    relative to the current directory and become the files' paths in the
                                    pack. "package" may be left out.
          template                  Writes a commented packaging manifest to fill in (standard output
                                    without -o).
          download-manifest create  Verifies each ARCHIVE and writes the download manifest a server
                                    publishes: each pack's version, download policy, sizes, SHA-256 and
                                    URL. With --download-base-url, a pack's URL is the base plus its
                                    identifier (serve the archive under that name); without it, the
                                    archive's path relative to the manifest, so a server that serves the
                                    manifest's folder serves the archives too.

        Options:
          -o, --output-path PATH    Where to write.
          --download-base-url URL   The https URL (http for localhost) the archives are served under.
          --quiet                   Print nothing on success.
          --help                    Show this help.

        Exit codes: 0 on success, 1 when a manifest, file or archive is refused (the message names it),
        64 for bad options.
        """

    /// How a run ended.
    public enum Outcome: Int32, Sendable {
        case success = 0
        case failure = 1
        case usage = 64
    }

    /// Runs one command.
    /// - Parameters:
    ///   - arguments: The arguments after the program's name.
    ///   - currentDirectory: The folder relative paths resolve against.
    ///   - output: Prints a line to standard output.
    ///   - error: Prints a line to standard error.
    /// - Returns: How the run ended; its raw value is the exit code.
    public static func run(arguments: [String], currentDirectory: URL, output: (String) -> Void,
                           error: (String) -> Void) -> Outcome {
        var arguments = LegacyCommandLineArguments(arguments, command: "ba-package")
        if arguments.flag("--help", "-h") {
            output(usage)
            return .success
        }
        do {
            let command = try PackagingCommand(parsing: &arguments, currentDirectory: currentDirectory)
            try arguments.finish()
            try command.run(output: output)
            return .success
        } catch let mistake as UsageError {
            error("ba-package: \(mistake.message)\n\n\(usage)")
            return .usage
        } catch let failure {
            error("ba-package: \(failure)")
            return .failure
        }
    }
}
