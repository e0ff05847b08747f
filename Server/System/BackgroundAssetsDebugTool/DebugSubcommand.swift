/*
Abstract:
What every subcommand of the debug tool provides: its arguments, its help, and running.
*/

/// One subcommand of `backgroundassets-debug`, such as `status` or `download`.
///
/// A new subcommand is a new type conforming to this protocol, listed in ``DebugTool/subcommands``;
/// the dispatcher, `--help` and the error handling need no other change.
/// Its arguments are its wrapped properties, and its ``CommandConfiguration`` gives its name, its
/// one-sentence abstract and the details its help ends with; both its parsing and its help come from them.
public protocol DebugSubcommand: ParsableArguments {
    /// Other words that select it, such as Apple's `-s` for `simulate`; none by default.
    static var aliases: [String] { get }

    /// Checks beyond the command line, such as a file that must exist, made before the subcommand
    /// prints anything; its errors carry their own exit code. Nothing by default.
    /// - Throws: ``DebugToolError`` naming what is wrong.
    func prepare() throws(DebugToolError)

    /// Does the work.
    /// - Parameter context: Where to print, which device root, and how to reach the service.
    /// - Returns: The exit code.
    /// - Throws: ``DebugToolError``, or an error from the service, printed by the dispatcher.
    func run(in context: ToolContext) async throws -> DebugExitCode
}

extension DebugSubcommand {
    public static var aliases: [String] { [] }

    public func prepare() throws(DebugToolError) {}

    /// The word that selects the subcommand, such as `status`.
    public static var name: String { configuration.name }
}
