/*
Abstract:
What a command says about itself beyond its arguments: its name, abstract, discussion, usage and subcommands.
*/

/// A command's name, the texts of its help and its subcommands, in the style of swift-argument-parser's
/// `CommandConfiguration`; its arguments are the wrapped properties of its ``ParsableArguments`` type.
public struct CommandConfiguration: Sendable {
    /// The word that runs it: the executable's name, or a subcommand's such as `list`.
    public var name: String
    /// What it does: one sentence for a subcommand, the overview paragraph for an executable.
    public var abstract: String
    /// What the help says after the options: details, notes, exit codes.
    public var discussion: String
    /// The usage line after the name, when it should not list every option, such as `[options]`.
    public var usage: String?
    /// Its subcommands, selected by the first positional word.
    public var subcommands: [any ParsableArguments.Type]
    /// The subcommand that runs when the first positional word names none.
    public var defaultSubcommand: String?

    /// Describes a command.
    /// - Parameters:
    ///   - name: The word that runs it.
    ///   - abstract: What it does.
    ///   - discussion: What the help says after the options.
    ///   - usage: The usage line after the name, when it should not list every option.
    ///   - subcommands: Its subcommands; a command that has any runs by itself only if it takes arguments
    ///     of its own (the app does, `ba-package` does not).
    ///   - defaultSubcommand: The subcommand that runs when the first positional word names none.
    public init(
        name: String, abstract: String, discussion: String = "", usage: String? = nil,
        subcommands: [any ParsableArguments.Type] = [], defaultSubcommand: String? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.usage = usage
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
    }
}
