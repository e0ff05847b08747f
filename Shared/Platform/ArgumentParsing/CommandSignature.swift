/*
Abstract:
A command's declaration: what it is, what it takes, and its subcommands; the one source of its parsing and its help.
*/

/// Everything a command takes, read from a ``ParsableArguments`` type's ``CommandConfiguration`` and
/// its wrapped properties: ``CommandLineArguments`` parses with it, and ``helpMessage(commandName:)``
/// renders it, so the help cannot list an option the parser refuses, or miss one it accepts.
public struct CommandSignature: Sendable, Hashable {
    /// One entry of the signature: an argument, or a group of options of which one is given.
    public enum Element: Sendable, Hashable {
        /// A flag, an option or a positional argument.
        case argument(ArgumentDefinition)
        /// Options of which at most one is given, exactly one when required.
        case oneOf([ArgumentDefinition], isRequired: Bool)

        /// The arguments of the entry, in order.
        public var definitions: [ArgumentDefinition] {
            switch self {
            case let .argument(definition): [definition]
            case let .oneOf(members, _): members
            }
        }
    }

    /// The word that runs it: the executable's name, or a subcommand's such as `list`.
    public var name: String
    /// What it does: one sentence for a subcommand, the overview paragraph for an executable.
    public var abstract: String
    /// What the help says after the options: details, notes, exit codes.
    public var discussion: String
    /// The usage line after the name, when it should not list every option, such as `[options]`.
    public var usage: String?
    /// What it takes, in the order its usage line and its help list them.
    public var elements: [Element]
    /// Its subcommands, selected by the first positional word.
    public var subcommands: [CommandSignature]
    /// The subcommand that runs when the first positional word names none, such as `package` for
    /// `ba-package MANIFEST`.
    public var defaultSubcommand: String?

    /// Declares a command.
    /// - Parameters:
    ///   - name: The word that runs it.
    ///   - abstract: What it does.
    ///   - discussion: What the help says after the options.
    ///   - usage: The usage line after the name, when it should not list every option.
    ///   - elements: Its flags, options, positional arguments and groups, in the order of its help.
    ///   - subcommands: Its subcommands; a command that has any runs by itself only if it takes arguments
    ///     of its own (the app does, `ba-package` does not).
    ///   - defaultSubcommand: The subcommand that runs when the first positional word names none.
    public init(
        name: String, abstract: String, discussion: String = "", usage: String? = nil,
        elements: [Element] = [], subcommands: [CommandSignature] = [], defaultSubcommand: String? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.usage = usage
        self.elements = elements
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
    }

    /// The elements of a command's declarations, in order: each argument by itself, and the members
    /// of an ``ExclusiveGroup`` together where the first of them is declared.
    /// - Parameter definitions: The declarations, in the order of the help.
    public static func elements(of definitions: [ArgumentDefinition]) -> [Element] {
        var emitted: Set<ExclusiveGroup> = []
        return definitions.compactMap { definition in
            guard let group = definition.group else { return .argument(definition) }
            guard emitted.insert(group).inserted else { return nil }
            return .oneOf(definitions.filter { $0.group == group }, isRequired: group.isRequired)
        }
    }

    /// Its own arguments, groups flattened, in order.
    public var definitions: [ArgumentDefinition] {
        elements.flatMap(\.definitions)
    }

    /// Its own positional arguments, in order.
    var positionals: [ArgumentDefinition] {
        definitions.filter { $0.kind == .positional }
    }

    /// Whether it runs without a subcommand.
    var runsByItself: Bool {
        subcommands.isEmpty || !elements.isEmpty
    }

    /// Every command of the tree that can run, each with the words that select it after the
    /// executable's name: itself (no words) when it runs by itself, then its subcommands'.
    public var runnableCommands: [(words: [String], signature: CommandSignature)] {
        let own = runsByItself ? [(words: [String](), signature: self)] : []
        return own + subcommands.flatMap { subcommand in
            subcommand.runnableCommands.map { ([subcommand.name] + $0.words, $0.signature) }
        }
    }

    /// Every flag and option of the tree, each once (the first declaration of a name wins), in order.
    public var allOptions: [ArgumentDefinition] {
        var seen: Set<String> = []
        return runnableCommands.flatMap { $0.signature.definitions }.filter { definition in
            definition.kind != .positional && seen.insert(definition.primaryName).inserted
        }
    }
}
