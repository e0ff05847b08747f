/*
Abstract:
Parses a subcommand inside the test process the way the dispatcher does: against its signature, filled, then checked.
*/

@testable import BackgroundAssetsDebugTool

extension DebugSubcommand {
    /// The subcommand a command line gives, checked as the dispatcher checks it before running it.
    /// - Parameter line: The arguments after the subcommand's name.
    /// - Throws: The ``DebugToolError`` the dispatcher would print.
    static func parsing(_ line: [String]) throws -> Self {
        let command = try Self(from: SubcommandArguments(line, subcommand: signature))
        try command.prepare()
        return command
    }
}
