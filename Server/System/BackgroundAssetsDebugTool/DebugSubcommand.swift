/*
Abstract:
What every subcommand of the debug tool provides: its signature, parsing, and running.
*/

/// One subcommand of `backgroundassets-debug`, such as `status` or `download`.
///
/// A new subcommand is a new type conforming to this protocol, listed in ``DebugTool/subcommands``;
/// the dispatcher, `--help` and the error handling need no other change.
public protocol DebugSubcommand: Sendable {
    /// Its name, its one-sentence abstract, its arguments and the details its help ends with; both
    /// its parsing and its help come from it.
    static var signature: CommandSignature { get }
    /// Other words that select it, such as Apple's `-s` for `simulate`; none by default.
    static var aliases: [String] { get }

    /// Reads the subcommand's arguments.
    /// - Parameter arguments: The arguments after the subcommand's name, parsed against ``signature``.
    /// - Throws: A usage ``DebugToolError`` naming the argument at fault.
    init(parsing arguments: SubcommandArguments) throws

    /// Does the work.
    /// - Parameter context: Where to print, which device root, and how to reach the service.
    /// - Returns: The exit code.
    /// - Throws: ``DebugToolError``, or an error from the service, printed by the dispatcher.
    func run(in context: ToolContext) async throws -> DebugExitCode
}

extension DebugSubcommand {
    public static var aliases: [String] { [] }

    /// The word that selects the subcommand, such as `status`.
    public static var name: String { signature.name }
}
