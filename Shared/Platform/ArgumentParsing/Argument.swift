/*
Abstract:
A positional argument, declared on the stored property it fills: required, optional (last), or every remaining word.
*/

/// A positional argument, such as the URL of `download URL`, declared on the property it fills.
/// The property's type says what it takes: a plain value is required; an optional one may be left out
/// (only the last positional argument may be); an array takes every remaining word, at least one.
///
/// ```swift
/// @Argument("URL", help: "What to download.")
/// var url: String
/// ```
@propertyWrapper
public struct Argument<Value: Sendable>: FilledArgument, Sendable {
    /// Its value name, help and rules.
    public private(set) var definition: ArgumentDefinition
    /// `nil` only in the declaration, which has no word until parsed.
    private var value: Value?
    private(set) var failure: UsageError?

    /// The word, or words, given.
    public var wrappedValue: Value {
        get {
            guard let value else {
                preconditionFailure("\(definition.primaryName) is required, so it has a value only once parsed.")
            }
            return value
        }
        set { value = newValue }
    }

    private init(
        _ valueName: String, help: String, required: Bool, repeatable: Bool = false, default fallback: Value?,
        read: ([String], _ name: String) throws(UsageError) -> Value?
    ) {
        let definition = ArgumentDefinition(
            names: [], kind: .positional, valueName: valueName, help: help, isRequired: required,
            isRepeatable: repeatable)
        self.definition = definition
        (value, failure) = Self.fill(definition, fallback: fallback) { words throws(UsageError) in
            try read(words, valueName)
        }
    }

    /// Declares a required positional argument.
    /// - Parameters:
    ///   - valueName: What it stands for, such as `URL`; errors and the usage line name it so.
    ///   - help: What it is, shown in a row of its own when not empty.
    ///   - conversion: Turns the word into a value, or refuses it naming the argument and the word.
    public init(_ valueName: String, help: String = "", as conversion: ArgumentConversion<Value>) {
        self.init(valueName, help: help, required: true, default: nil) { words, name throws(UsageError) in
            try words.first.map { word throws(UsageError) in try conversion.value(from: word, name: name) }
        }
    }
}

extension Argument where Value == String {
    /// Declares a required positional argument, the word as given.
    /// - Parameters:
    ///   - valueName: What it stands for, such as `URL`; errors and the usage line name it so.
    ///   - help: What it is, shown in a row of its own when not empty.
    public init(_ valueName: String, help: String = "") {
        self.init(valueName, help: help, required: true, default: nil) { words, _ in words.first }
    }
}

extension Argument where Value == String? {
    /// Declares an optional positional argument, the word as given: the usage line shows it in brackets,
    /// and it is `nil` when left out. Only the last positional argument of a command may be optional.
    public init(_ valueName: String, help: String = "") {
        self.init(valueName, help: help, required: false, default: .some(nil)) { words, _ in words.first }
    }
}

extension Argument where Value == [String] {
    /// Declares a positional argument that takes every remaining word, at least one, as given.
    public init(_ valueName: String, help: String = "") {
        self.init(valueName, help: help, required: true, repeatable: true, default: []) { words, _ in
            words.isEmpty ? nil : words
        }
    }
}

extension Argument: Equatable where Value: Equatable {}
