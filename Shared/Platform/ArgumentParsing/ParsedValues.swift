/*
Abstract:
What the parser found for the command being filled, visible to its property wrappers while they are created.
*/

/// The flags, option values and positional words of a parsed command line, by each declaration's
/// primary name.
///
/// A command's declarations are its stored properties, so there is no list of them to fill one by
/// one: ``ParsableArguments/init(from:)`` creates the command with `init()` while these values are
/// bound, and each ``Flag``, ``Option`` and ``Argument`` takes its value as it is created. Outside that
/// call nothing is bound, and each takes its default: that instance is the one the signature is read from.
struct ParsedValues: Sendable {
    /// The values of the command being filled, if one is.
    @TaskLocal static var current: ParsedValues?

    var given: [GivenOption]
    var positionals: [String: [String]]

    /// Whether the flag or option was given, in any spelling.
    func isGiven(_ definition: ArgumentDefinition) -> Bool {
        given.contains { $0.definition.primaryName == definition.primaryName }
    }

    /// The texts given to an option, in order, or the words of a positional argument.
    func texts(of definition: ArgumentDefinition) -> [String] {
        guard definition.kind != .positional else { return positionals[definition.primaryName] ?? [] }
        return given.filter { $0.definition.primaryName == definition.primaryName }.compactMap(\.value)
    }
}

/// One flag or option as given on the command line.
struct GivenOption: Sendable {
    var definition: ArgumentDefinition
    /// The spelling used, for messages.
    var spelling: String
    var value: String?
}

/// A property wrapper the parser fills: what it declares, and the mistake in its value, if any.
protocol FilledArgument {
    var definition: ArgumentDefinition { get }
    /// Why the text given could not become the value; the parse throws it.
    var failure: UsageError? { get }
}

extension FilledArgument {
    /// Reads a value while ``ParsedValues/current`` is bound, else takes the default.
    /// - Parameters:
    ///   - definition: The declaration.
    ///   - fallback: The value when nothing is given or nothing is bound.
    ///   - read: Turns the texts given into the value; `nil` when there are none.
    /// - Returns: The value, and the conversion's mistake, if any.
    static func fill<Value>(
        _ definition: ArgumentDefinition, fallback: Value?, read: ([String]) throws(UsageError) -> Value?
    ) -> (Value?, UsageError?) {
        guard let parsed = ParsedValues.current else { return (fallback, nil) }
        do {
            return (try read(parsed.texts(of: definition)) ?? fallback, nil)
        } catch {
            return (fallback, error)
        }
    }
}
