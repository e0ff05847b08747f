/*
Abstract:
Parses a subcommand inside the test process the way the dispatcher does: against its signature, then its own reading.
*/

@testable import BackgroundAssetsDebugTool

extension DebugSubcommand {
    /// The subcommand a command line gives.
    /// - Parameter line: The arguments after the subcommand's name.
    /// - Throws: The usage ``DebugToolError`` the dispatcher would print.
    static func parsing(_ line: [String]) throws -> Self {
        try Self(parsing: SubcommandArguments(line, subcommand: signature))
    }
}
