/*
Abstract:
An executable's options as one value, parsed from its signature, with --help and mistakes answered the same way everywhere.
*/

/// The options of one executable, read into a small struct, in the style of swift-argument-parser's
/// `ParsableArguments`: ``signature`` declares them, and both parsing and `--help` come from it.
public protocol ParsableArguments {
    /// What the executable takes.
    static var signature: CommandSignature { get }

    /// Reads the values of a parsed command line, with checks of its own.
    /// - Parameter arguments: The command line, already checked against ``signature``.
    /// - Throws: A ``UsageError`` naming the argument at fault.
    init(parsing arguments: CommandLineArguments<UsageError>) throws(UsageError)
}

extension ParsableArguments {
    /// Parses a command line.
    /// - Parameter arguments: The arguments after the executable's name.
    /// - Returns: The options. `--help` is not answered here (``parseOrExit(_:)`` answers it).
    /// - Throws: A ``UsageError`` naming the first argument at fault.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Self {
        try Self(parsing: CommandLineArguments(arguments, signature: signature))
    }

    /// Parses the process's command line, or ends the process as every executable of the package does:
    /// `--help` prints the help to standard output and exits 0; a mistake prints `name: message` and
    /// the help to standard error and exits 64.
    /// - Parameter arguments: The arguments after the executable's name.
    /// - Returns: The options.
    public static func parseOrExit(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Self {
        let signature = signature
        do {
            let parsed = try CommandLineArguments(arguments, signature: signature)
            if parsed.isHelpRequested { CommandLineExit.help(signature.helpMessage()) }
            return try Self(parsing: parsed)
        } catch {
            CommandLineExit.usageError(error.message, command: signature.name, usage: signature.helpMessage())
        }
    }
}
