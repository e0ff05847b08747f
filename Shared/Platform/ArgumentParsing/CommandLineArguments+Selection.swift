/*
Abstract:
What a parsed command line tells beyond its values: the subcommand selected, and the command's own usage error.
*/

extension CommandLineArguments {
    /// Whether the words selected a subcommand.
    /// - Parameter subcommand: The subcommand's signature.
    public func selected(_ subcommand: CommandSignature) -> Bool {
        command == subcommand
    }

    /// The values of a subcommand, when the words selected it.
    /// - Parameter subcommand: The subcommand's type, one of the signature's subcommands.
    /// - Returns: Its values, or `nil` when the words selected another command.
    /// - Throws: The command's usage error for a value that does not convert, or from its checks.
    public func values<Subcommand: ParsableArguments>(of subcommand: Subcommand.Type) throws(Failure) -> Subcommand? {
        guard selected(subcommand.signature) else { return nil }
        return try Subcommand(from: self)
    }

    /// The command's usage error for a sentence about its command line, for checks of its own.
    public func usage(_ message: String) -> Failure {
        makeError(message)
    }
}

extension CommandLineArguments where Failure == UsageError {
    /// Parses the command line of a command whose mistakes are plain ``UsageError``s.
    /// - Parameters:
    ///   - arguments: The arguments after the command's name.
    ///   - signature: What the command takes.
    /// - Throws: A ``UsageError`` naming the first argument at fault.
    public init(_ arguments: [String], signature: CommandSignature) throws(UsageError) {
        try self.init(arguments, signature: signature) { UsageError($0) }
    }
}
