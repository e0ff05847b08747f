/*
Abstract:
What every subcommand of the debug tool provides: its name, its usage, parsing, and running.
*/

/// One subcommand of `backgroundassets-debug`, such as `status` or `download`.
///
/// A new subcommand is a new type conforming to this protocol, listed in ``DebugTool/subcommands``;
/// the dispatcher, `--help` and the error handling need no other change.
public protocol DebugSubcommand: Sendable {
    /// The word that selects the subcommand, such as `status`.
    static var name: String { get }
    /// Other words that select it, such as Apple's `-s` for `simulate`; none by default.
    static var aliases: [String] { get }
    /// The arguments it takes, as shown in the usage, such as `[--json]`.
    static var synopsis: String { get }
    /// One sentence saying what it does.
    static var summary: String { get }
    /// Further lines of help: its options, and what it does in detail.
    static var details: String { get }

    /// Reads the subcommand's arguments.
    /// - Parameter arguments: The arguments after the subcommand's name; take what you need, then call `finish()`.
    /// - Throws: A usage ``DebugToolError`` naming the argument at fault.
    init(parsing arguments: inout SubcommandArguments) throws

    /// Does the work.
    /// - Parameter context: Where to print, which device root, and how to reach the service.
    /// - Returns: The exit code.
    /// - Throws: ``DebugToolError``, or an error from the service, printed by the dispatcher.
    func run(in context: ToolContext) async throws -> DebugExitCode
}

extension DebugSubcommand {
    public static var aliases: [String] { [] }
}
