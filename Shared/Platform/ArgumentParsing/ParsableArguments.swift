/*
Abstract:
A command's arguments as one value: declared once on its stored properties, from which its signature, parsing and --help come.
*/

/// The arguments of one command, in the style of swift-argument-parser's `ParsableArguments`: each
/// flag, option and positional argument is declared once, on the stored property it fills, with
/// ``Flag``, ``Option`` or ``Argument``; the ``signature`` is read from those properties in the order
/// they are declared, so the help and the parser come from the same declarations.
///
/// ```swift
/// struct ListArguments: ParsableArguments {
///     static let configuration = CommandConfiguration(name: "list", abstract: "Print the sessions.")
///
///     @Flag("--json", help: "Print the list as JSON.")
///     var json: Bool
/// }
/// ```
public protocol ParsableArguments: Sendable {
    /// Its name, the texts of its help, and its subcommands.
    static var configuration: CommandConfiguration { get }

    /// Creates the command with every argument at its default; the parser fills the values.
    init()

    /// Checks of its own once the values are filled, such as options that only go together, and
    /// values derived from several; nothing by default.
    /// - Throws: A ``UsageError`` with a sentence naming the arguments at fault.
    mutating func validate() throws(UsageError)

    /// For a command with subcommands: takes what it needs from the one the words selected, read with
    /// ``CommandLineArguments/values(of:)``; nothing by default.
    /// - Parameter arguments: The command line, parsed against ``signature``.
    /// - Throws: The command line's usage error for a value of the subcommand that does not convert.
    mutating func readSubcommand<Failure>(from arguments: CommandLineArguments<Failure>) throws(Failure)
}

extension ParsableArguments {
    public mutating func validate() throws(UsageError) {}

    public mutating func readSubcommand<Failure>(from arguments: CommandLineArguments<Failure>) throws(Failure) {}

    /// What the command takes, its subcommands' included: the one source of its parsing and its help.
    public static var signature: CommandSignature {
        let configuration = configuration
        return CommandSignature(
            name: configuration.name, abstract: configuration.abstract, discussion: configuration.discussion,
            usage: configuration.usage, elements: CommandSignature.elements(of: definitions),
            subcommands: configuration.subcommands.map { $0.signature },
            defaultSubcommand: configuration.defaultSubcommand)
    }

    /// The declarations of the wrapped properties, in the order they are declared: read from an instance
    /// created outside a parse, whose properties hold their declarations and defaults.
    static var definitions: [ArgumentDefinition] {
        Mirror(reflecting: Self()).children.compactMap { ($0.value as? any FilledArgument)?.definition }
    }

    /// Fills the command's values from a parsed command line, then those of the subcommand it selected.
    /// - Parameter arguments: The command line, checked against ``signature``, or against a signature
    ///   that has this command among its subcommands.
    /// - Throws: The command line's usage error for the first value that does not convert, in the order
    ///   of the declarations, or the one ``validate()`` throws.
    public init<Failure>(from arguments: CommandLineArguments<Failure>) throws(Failure) {
        let values = ParsedValues(given: arguments.given, positionals: arguments.positionals)
        var command = ParsedValues.$current.withValue(values) { Self() }
        for child in Mirror(reflecting: command).children {
            if let failure = (child.value as? any FilledArgument)?.failure { throw arguments.usage(failure.message) }
        }
        do {
            try command.validate()
        } catch {
            throw arguments.usage(error.message)
        }
        try command.readSubcommand(from: arguments)
        self = command
    }

    /// Parses a command line.
    /// - Parameter arguments: The arguments after the executable's name.
    /// - Returns: The values. `--help` is not answered here (``parseOrExit(_:)`` answers it).
    /// - Throws: A ``UsageError`` naming the first argument at fault.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Self {
        try Self(from: CommandLineArguments(arguments, signature: signature))
    }

    /// Parses the process's command line, or ends the process as every executable of the package does:
    /// `--help` prints the help to standard output and exits 0; a mistake prints `name: message` and
    /// the help to standard error and exits 64.
    /// - Parameter arguments: The arguments after the executable's name.
    /// - Returns: The values.
    public static func parseOrExit(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Self {
        let signature = signature
        do {
            let parsed = try CommandLineArguments(arguments, signature: signature)
            if parsed.isHelpRequested { CommandLineExit.help(signature.helpMessage()) }
            return try Self(from: parsed)
        } catch {
            CommandLineExit.usageError(error.message, command: signature.name, usage: signature.helpMessage())
        }
    }
}
