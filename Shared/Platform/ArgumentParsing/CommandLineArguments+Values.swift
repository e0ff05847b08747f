/*
Abstract:
Reading a parsed command line by the declarations the command listed: flags, option values converted, positional arguments.
*/

extension CommandLineArguments {
    /// Whether a flag was given, in any of its spellings.
    public func flag(_ flag: Flag) -> Bool {
        given.contains { $0.definition.primaryName == flag.definition.primaryName }
    }

    /// The value of an option, converted.
    /// - Parameter option: The option, as the command declared it.
    /// - Returns: The value given, else the declared default, else `nil`.
    /// - Throws: The command's usage error when the value does not convert, naming the option and the text.
    public func option<Value>(_ option: Option<Value>) throws(Failure) -> Value? {
        try options(option).first ?? option.defaultValue
    }

    /// The value of an option declared with a default: the value given, else the default.
    /// - Parameter option: The option, as the command declared it, with `default:`.
    /// - Throws: The command's usage error when the value does not convert, naming the option and the text.
    /// - Precondition: The declaration has a default; one without is read with ``option(_:)``.
    public func value<Value>(_ option: Option<Value>) throws(Failure) -> Value {
        guard let value = try self.option(option) else {
            preconditionFailure("\(option.definition.primaryName) is declared without a default; read it with option(_:).")
        }
        return value
    }

    /// Every value of an option that may be repeated, converted, in the order given.
    /// - Throws: The command's usage error for the first value that does not convert.
    public func options<Value>(_ option: Option<Value>) throws(Failure) -> [Value] {
        var values: [Value] = []
        for text in texts(of: option.definition) {
            do {
                values.append(try option.value(from: text))
            } catch {
                throw makeError(error.message)
            }
        }
        return values
    }

    /// The word of a positional argument.
    /// - Throws: The command's usage error when it is missing, which parsing has already ruled out
    ///   for an argument the selected command declares.
    public func positional(_ argument: Argument) throws(Failure) -> String {
        guard let word = positionals(argument).first else {
            throw makeError(Self.needs(argument.definition, in: commandName))
        }
        return word
    }

    /// Every word of a repeatable positional argument, in order; empty when the selected command does not take it.
    public func positionals(_ argument: Argument) -> [String] {
        positionals[argument.definition.primaryName] ?? []
    }

    /// Whether the words selected a subcommand.
    /// - Parameter subcommand: The subcommand's signature.
    public func selected(_ subcommand: CommandSignature) -> Bool {
        command == subcommand
    }

    /// The command's usage error for a sentence about its command line, for checks of its own.
    public func usage(_ message: String) -> Failure {
        makeError(message)
    }

    private func texts(of definition: ArgumentDefinition) -> [String] {
        given.filter { $0.definition.primaryName == definition.primaryName }.compactMap(\.value)
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
