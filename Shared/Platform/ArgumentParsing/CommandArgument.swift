/*
Abstract:
What a command lists in its signature: flags, options, positional arguments, and groups of options given one at a time.
*/

/// Something a command lists in its ``CommandSignature``: one argument, or a ``OneOf`` group.
public protocol CommandArgument: Sendable {
    /// What the signature keeps of it.
    var element: CommandSignature.Element { get }
}

/// One flag, option or positional argument, which the command also uses as the key to read its value.
public protocol DeclaredArgument: CommandArgument {
    /// Its name, value name, help and rules.
    var definition: ArgumentDefinition { get set }
}

extension DeclaredArgument {
    public var element: CommandSignature.Element { .argument(definition) }

    /// The same argument, required: the command refuses to run without it.
    public func required() -> Self {
        var copy = self
        copy.definition.isRequired = true
        return copy
    }

    /// The same argument with another value name in this command's usage line, such as `-o ARCHIVE`
    /// for an output path that is an archive here; its help row keeps the general one.
    public func inUsage(as valueName: String) -> Self {
        var copy = self
        copy.definition.usageValueName = valueName
        return copy
    }

    /// The same argument, no longer answering to older spellings, such as `--app` for `--app-bundle-id`:
    /// given one of them, the parser names the spellings to use instead. The help does not list them.
    public func retiring(_ names: String...) -> Self {
        var copy = self
        copy.definition.retiredNames += names
        return copy
    }

    /// The same argument, allowed only together with another, such as an app's own switch with `--low-power`;
    /// the usage line shows it inside the other's brackets.
    public func requiring(_ other: some DeclaredArgument) -> Self {
        var copy = self
        copy.definition.companion = other.definition.primaryName
        return copy
    }
}

/// A flag: present or absent, such as `--json`.
public struct Flag: DeclaredArgument {
    public var definition: ArgumentDefinition

    /// Declares a flag.
    /// - Parameters:
    ///   - names: Its spellings, the preferred one first, such as `--simulate` and `-s`.
    ///   - help: What it does, as sentences.
    public init(_ names: String..., help: String) {
        definition = ArgumentDefinition(names: names, kind: .flag, valueName: "", help: help)
    }
}

/// A positional argument, such as the URL of `download URL`; required unless declared ``optional()``
/// (then it comes last), and with `repeatable` it takes every remaining word (at least one).
public struct Argument: DeclaredArgument {
    public var definition: ArgumentDefinition

    /// Declares a positional argument.
    /// - Parameters:
    ///   - valueName: What it stands for, such as `URL`; errors and the usage line name it so.
    ///   - help: What it is, shown in a row of its own when not empty.
    ///   - repeatable: Whether it takes every remaining word.
    public init(_ valueName: String, help: String = "", repeatable: Bool = false) {
        definition = ArgumentDefinition(
            names: [], kind: .positional, valueName: valueName, help: help, isRequired: true, isRepeatable: repeatable)
    }

    /// The same argument, optional: the usage line shows it in brackets, and
    /// ``CommandLineArguments/positionals(_:)`` is empty when it is left out. Only the last positional
    /// argument of a command may be optional.
    public func optional() -> Self {
        var copy = self
        copy.definition.isRequired = false
        return copy
    }
}

/// Options of which at most one may be given (exactly one when required), such as `trace`'s outputs.
/// The usage line shows them as `[--mermaid | --svg FILE]`, and the parser refuses two of them.
public struct OneOf: CommandArgument {
    public let element: CommandSignature.Element

    /// Declares the group.
    /// - Parameters:
    ///   - members: The flags and options, in the order the help lists them.
    ///   - required: Whether one of them must be given.
    public init(_ members: [any DeclaredArgument], required: Bool = false) {
        element = .oneOf(members.map(\.definition), isRequired: required)
    }
}
