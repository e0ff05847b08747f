/*
Abstract:
An option with a value, declared on the stored property it fills, with its conversion and default.
*/

/// An option followed by a value, such as `--port 8080` or `--port=8080`, declared on the property it
/// fills. The property's type says how many values it takes: a property with a default value takes
/// at most one and shows the default in the help; an optional one at most one, `nil` when left out;
/// an array any number, in order; and one with neither a default nor `?` is required.
///
/// ```swift
/// @Option("--port", valueName: "PORT", help: "TCP port.", as: .number(in: 0...65_535, expected: "a port"))
/// var port = 8080
/// @Option("--access-log", valueName: "FILE", help: "Append one line per response to FILE.")
/// var accessLog: String?
/// ```
@propertyWrapper
public struct Option<Value: Sendable>: FilledArgument, Sendable {
    /// Its names, value name, help and rules.
    public private(set) var definition: ArgumentDefinition
    /// `nil` only in the declaration of a required option, which has no value until parsed.
    private var value: Value?
    private(set) var failure: UsageError?

    /// The value given, else the default.
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
        _ names: [String], valueName: String, help: String, defaultDescription: String?, traits: [ArgumentTrait],
        required: Bool = false, repeatable: Bool = false, default fallback: Value?,
        read: ([String], _ name: String) throws(UsageError) -> Value?
    ) {
        var definition = ArgumentDefinition(
            names: names, kind: .option, valueName: valueName, help: help, defaultDescription: defaultDescription,
            isRequired: required, isRepeatable: repeatable)
        ArgumentTrait.apply(traits, to: &definition)
        self.definition = definition
        (value, failure) = Self.fill(definition, fallback: fallback) { texts throws(UsageError) in
            try read(texts, definition.primaryName)
        }
    }

    /// Declares an option with a default value, shown in the help.
    /// - Parameters:
    ///   - wrappedValue: The value when the option is not given.
    ///   - names: Its spellings, the preferred one first, such as `--output-path` and `-o`.
    ///   - valueName: What the value stands for in the help, such as `PATH`; the conversion's by default.
    ///   - help: What it does, as sentences.
    ///   - defaultDescription: What happens when it is not given, when the default value alone does not say it.
    ///   - traits: Its group, companion, retired spellings, if any.
    ///   - conversion: Turns the text into a value, or refuses it naming the option and the text.
    public init(
        wrappedValue: Value, _ names: String..., valueName: String? = nil, help: String,
        defaultDescription: String? = nil, traits: [ArgumentTrait] = [], as conversion: ArgumentConversion<Value>
    ) {
        self.init(
            names, valueName: valueName ?? conversion.valueName ?? "VALUE", help: help,
            defaultDescription: defaultDescription ?? conversion.describe(wrappedValue), traits: traits,
            default: wrappedValue
        ) { texts, name throws(UsageError) in
            try texts.first.map { text throws(UsageError) in try conversion.value(from: text, name: name) }
        }
    }

    /// Declares a required option: the command refuses to run without it.
    /// - Parameters:
    ///   - names: Its spellings, the preferred one first.
    ///   - valueName: What the value stands for in the help; the conversion's by default.
    ///   - help: What it does, as sentences.
    ///   - traits: Its retired spellings or usage value name, if any.
    ///   - conversion: Turns the text into a value, or refuses it naming the option and the text.
    public init(
        _ names: String..., valueName: String? = nil, help: String, traits: [ArgumentTrait] = [],
        as conversion: ArgumentConversion<Value>
    ) {
        self.init(
            names, valueName: valueName ?? conversion.valueName ?? "VALUE", help: help, defaultDescription: nil,
            traits: traits, required: true, default: nil
        ) { texts, name throws(UsageError) in
            try texts.first.map { text throws(UsageError) in try conversion.value(from: text, name: name) }
        }
    }

    /// Declares an optional option, `nil` when not given.
    /// - Parameters:
    ///   - names: Its spellings, the preferred one first.
    ///   - valueName: What the value stands for in the help; the conversion's by default.
    ///   - help: What it does, as sentences.
    ///   - defaultDescription: What happens when it is not given, shown as `(default: …)`.
    ///   - traits: Its group, companion, retired spellings, if any.
    ///   - conversion: Turns the text into a value, or refuses it naming the option and the text.
    public init<Wrapped>(
        _ names: String..., valueName: String? = nil, help: String, defaultDescription: String? = nil,
        traits: [ArgumentTrait] = [], as conversion: ArgumentConversion<Wrapped>
    ) where Value == Wrapped? {
        self.init(
            names, valueName: valueName ?? conversion.valueName ?? "VALUE", help: help,
            defaultDescription: defaultDescription, traits: traits, default: .some(nil)
        ) { texts, name throws(UsageError) in
            try texts.first.map { text throws(UsageError) in try conversion.value(from: text, name: name) }
        }
    }

    /// Declares an option that may be given any number of times, each value kept in order.
    /// - Parameters:
    ///   - wrappedValue: The values when the option is not given; none by default.
    ///   - names: Its spellings, the preferred one first.
    ///   - valueName: What each value stands for in the help; the conversion's by default.
    ///   - help: What it does, as sentences.
    ///   - traits: Its group or companion, if any.
    ///   - conversion: Turns each text into a value, or refuses it naming the option and the text.
    public init<Element>(
        wrappedValue: [Element] = [], _ names: String..., valueName: String? = nil, help: String,
        traits: [ArgumentTrait] = [], as conversion: ArgumentConversion<Element>
    ) where Value == [Element] {
        self.init(
            names, valueName: valueName ?? conversion.valueName ?? "VALUE", help: help, defaultDescription: nil,
            traits: traits, repeatable: true, default: wrappedValue
        ) { texts, name throws(UsageError) in
            var values: [Element] = []
            for text in texts { values.append(try conversion.value(from: text, name: name)) }
            return texts.isEmpty ? nil : values
        }
    }
}

extension Option: Equatable where Value: Equatable {}

extension Option where Value == String {
    /// Declares an option whose value is the text as given, with a default value shown in the help.
    public init(
        wrappedValue: String, _ names: String..., valueName: String, help: String, defaultDescription: String? = nil,
        traits: [ArgumentTrait] = []
    ) {
        self.init(
            names, valueName: valueName, help: help, defaultDescription: defaultDescription ?? wrappedValue,
            traits: traits, default: wrappedValue
        ) { texts, _ in texts.first }
    }

    /// Declares a required option whose value is the text as given.
    public init(_ names: String..., valueName: String, help: String, traits: [ArgumentTrait] = []) {
        self.init(
            names, valueName: valueName, help: help, defaultDescription: nil, traits: traits, required: true,
            default: nil
        ) { texts, _ in texts.first }
    }
}

extension Option where Value == String? {
    /// Declares an optional option whose value is the text as given, `nil` when not given.
    public init(
        _ names: String..., valueName: String, help: String, defaultDescription: String? = nil,
        traits: [ArgumentTrait] = []
    ) {
        self.init(
            names, valueName: valueName, help: help, defaultDescription: defaultDescription, traits: traits,
            default: .some(nil)
        ) { texts, _ in texts.first }
    }
}

extension Option where Value == [String] {
    /// Declares an option whose texts are kept as given, in order; it may be given any number of times.
    public init(
        wrappedValue: [String] = [], _ names: String..., valueName: String, help: String, traits: [ArgumentTrait] = []
    ) {
        self.init(
            names, valueName: valueName, help: help, defaultDescription: nil, traits: traits, repeatable: true,
            default: wrappedValue
        ) { texts, _ in texts.isEmpty ? nil : texts }
    }
}
