/*
Abstract:
A flag, declared on the stored property it fills: present or absent.
*/

/// A flag: present or absent, such as `--json`, declared on the property it fills:
///
/// ```swift
/// @Flag("--json", help: "Print the list as JSON.")
/// var json: Bool
/// ```
@propertyWrapper
public struct Flag: FilledArgument, Sendable, Hashable {
    /// Its names, help and rules.
    public private(set) var definition: ArgumentDefinition
    /// Whether it was given.
    public var wrappedValue: Bool
    var failure: UsageError? { nil }

    /// Declares a flag.
    /// - Parameters:
    ///   - names: Its spellings, the preferred one first, such as `--simulate` and `-s`.
    ///   - help: What it does, as sentences.
    ///   - traits: Its group or companion, if any.
    public init(_ names: String..., help: String, traits: [ArgumentTrait] = []) {
        var definition = ArgumentDefinition(names: names, kind: .flag, valueName: "", help: help)
        ArgumentTrait.apply(traits, to: &definition)
        self.definition = definition
        wrappedValue = ParsedValues.current?.isGiven(definition) ?? false
    }
}
