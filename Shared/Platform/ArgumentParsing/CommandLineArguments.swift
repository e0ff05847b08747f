/*
Abstract:
A command line parsed against its signature: each word a flag, an option's value, a subcommand or a positional argument.
*/

/// The arguments of one command, parsed against its ``CommandSignature``.
///
/// Parsing refuses, with a sentence naming the argument, anything the signature does not declare,
/// an option without its value, two options of a group, and a required argument left out; the
/// command's ``ParsableArguments`` type is then filled from it (``ParsableArguments/init(from:)``).
/// `--name value` and `--name=value` are both accepted, and `--` ends the options.
public struct CommandLineArguments<Failure: Error>: Sendable {
    /// The signature parsed against.
    public let signature: CommandSignature
    /// The subcommand the words selected, or the signature itself when they selected none.
    public let command: CommandSignature
    /// The words that selected ``command``, such as `["download-manifest", "create"]`.
    public let commandWords: [String]
    /// Whether `--help` or `-h` was given; nothing else was checked then.
    public let isHelpRequested: Bool
    var given: [GivenOption] = []
    var positionals: [String: [String]] = [:]
    let makeError: @Sendable (String) -> Failure

    /// Parses a command line.
    /// - Parameters:
    ///   - arguments: The arguments after the command's name.
    ///   - signature: What the command takes.
    ///   - makeError: Turns a sentence about the command line into the command's usage error.
    /// - Throws: The command's usage error naming the first argument at fault.
    public init(
        _ arguments: [String], signature: CommandSignature, makeError: @escaping @Sendable (String) -> Failure
    ) throws(Failure) {
        self.signature = signature
        self.makeError = makeError
        let options = arguments.prefix { $0 != "--" }
        isHelpRequested = options.contains("--help") || options.contains("-h")
        guard !isHelpRequested else {
            (command, commandWords) = (signature, [])
            return
        }
        do {
            var words: [String] = []
            (given, words) = try Self.scan(arguments, options: signature.allOptions)
            (command, commandWords, words) = try Self.select(in: signature, words: words)
            positionals = try Self.assign(words, to: command, named: commandName)
            try Self.check(given, against: command, in: signature, named: commandName, words: commandWords)
        } catch {
            throw makeError(error.message)
        }
    }

    /// The selected command as its messages name it: its words, such as `download-manifest create`,
    /// or the executable's name.
    var commandName: String {
        commandWords.isEmpty ? signature.name : commandWords.joined(separator: " ")
    }

    /// Splits the words into flags and options (by the declared names) and the rest, in order.
    private static func scan(
        _ arguments: [String], options: [ArgumentDefinition]
    ) throws(UsageError) -> ([GivenOption], [String]) {
        var given: [GivenOption] = []
        var words: [String] = []
        var remaining = arguments[...]
        while let word = remaining.popFirst() {
            if word == "--" {
                words += remaining
                break
            }
            guard word.hasPrefix("-"), word != "-" else {
                words.append(word)
                continue
            }
            let spelling = String(word.prefix { $0 != "=" })
            let inline = word.contains("=") ? String(word.drop { $0 != "=" }.dropFirst()) : nil
            guard let definition = options.first(where: { $0.names.contains(spelling) }) else {
                if let current = options.first(where: { $0.retiredNames.contains(spelling) }) {
                    throw UsageError("\(spelling) is now \(current.spellingsShortFirst.joined(separator: "/")).")
                }
                throw UsageError("Unknown argument \(word.debugDescription).")
            }
            if definition.kind == .flag {
                guard inline == nil else { throw UsageError("\(spelling) takes no value; give it alone.") }
                given.append(GivenOption(definition: definition, spelling: spelling))
                continue
            }
            if let inline {
                given.append(GivenOption(definition: definition, spelling: spelling, value: inline))
                continue
            }
            guard let value = remaining.first, !value.hasPrefix("--") else {
                throw UsageError("The option \(spelling) needs a value.")
            }
            remaining = remaining.dropFirst()
            given.append(GivenOption(definition: definition, spelling: spelling, value: value))
        }
        return (given, words)
    }

    /// Follows the leading words down the subcommands as long as they name one, or a default does.
    private static func select(
        in signature: CommandSignature, words: [String]
    ) throws(UsageError) -> (CommandSignature, [String], [String]) {
        var command = signature
        var path: [String] = []
        var words = words[...]
        while !command.subcommands.isEmpty {
            if let word = words.first, let next = command.subcommands.first(where: { $0.name == word }) {
                words = words.dropFirst()
                (command, path) = (next, path + [word])
            } else if let next = command.subcommands.first(where: { $0.name == command.defaultSubcommand }) {
                (command, path) = (next, path + [next.name])
            } else if command.runsByItself, words.isEmpty || !command.positionals.isEmpty {
                break
            } else {
                let names = command.subcommands.map(\.name).joined(separator: ", ")
                guard let word = words.first else {
                    let subject = (path.isEmpty ? [signature.name] : path).joined(separator: " ")
                    throw UsageError("\(subject) needs a command: \(names).")
                }
                let whole = ([signature.name] + path).joined(separator: " ")
                throw UsageError("\(word.debugDescription) is not a command of \(whole); the commands are \(names).")
            }
        }
        return (command, path, Array(words))
    }
}
