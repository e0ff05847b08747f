/*
Abstract:
The ba-package command: packages folders into asset packs, writes the manifest template and the download manifest.
*/

import ArgumentParsing
import Foundation

/// The commands of `ba-package`, the Linux counterpart of Apple's `xcrun ba-package`.
public enum AssetPackagingTool {
    /// What `ba-package` takes on its command line, from which both its parsing and ``usage`` come.
    public static var signature: CommandSignature { PackagingArguments.signature }

    /// The usage text, which `--help` prints and every usage error ends with.
    public static var usage: String { signature.helpMessage() }

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
        do {
            let arguments = try CommandLineArguments(
                PackagingArguments.Create.expandingVersionLists(arguments), signature: signature)
            if arguments.isHelpRequested {
                output(usage)
                return .success
            }
            let command = try PackagingCommand(parsing: arguments, currentDirectory: currentDirectory)
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
