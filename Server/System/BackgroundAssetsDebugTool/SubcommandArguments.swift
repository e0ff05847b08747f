/*
Abstract:
A subcommand's arguments: the package's argument parser, with the debug tool's usage error.
*/

@_exported import ArgumentParsing

/// The arguments of one subcommand; mistakes are ``DebugToolError/usage(_:)`` errors (exit code 64).
public typealias SubcommandArguments = LegacyCommandLineArguments<DebugToolError>

extension LegacyCommandLineArguments where Failure == DebugToolError {
    /// Wraps the arguments that follow a subcommand's name.
    /// - Parameters:
    ///   - arguments: The arguments after the subcommand's name.
    ///   - subcommand: The subcommand's name, for error messages.
    public init(_ arguments: [String], subcommand: String) {
        self.init(arguments, command: subcommand) { DebugToolError.usage($0) }
    }
}
