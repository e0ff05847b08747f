/*
Abstract:
An option with a value, declared with its conversion and default: text, a whole number in a range, or on/off.
*/

/// An option followed by a value, such as `--port 8080` or `--port=8080`, read as a `Value`.
public struct Option<Value: Sendable>: DeclaredArgument {
    public var definition: ArgumentDefinition
    /// The value when the option is not given, also shown in the help; `nil` when there is none.
    public let defaultValue: Value?
    private let convert: @Sendable (String) throws(UsageError) -> Value

    /// Declares an option whose value is converted by `convert`.
    /// - Parameters:
    ///   - names: Its spellings, the preferred one first, such as `--output-path` and `-o`.
    ///   - valueName: What the value stands for in the help, such as `PATH`.
    ///   - help: What it does, as sentences.
    ///   - defaultValue: The value when the option is not given, shown as `(default: …)`.
    ///   - defaultDescription: What happens when it is not given, when a value alone does not say it.
    ///   - repeatable: Whether it may be given more than once, each value kept in order.
    ///   - convert: Turns the text into a value, or throws a usage error naming the option and the text.
    public init(
        _ names: String..., valueName: String, help: String, default defaultValue: Value? = nil,
        defaultDescription: String? = nil, repeatable: Bool = false,
        convert: @escaping @Sendable (String) throws(UsageError) -> Value
    ) {
        definition = ArgumentDefinition(
            names: names, kind: .option, valueName: valueName, help: help,
            defaultDescription: defaultDescription ?? defaultValue.map { "\($0)" }, isRepeatable: repeatable)
        self.defaultValue = defaultValue
        self.convert = convert
    }

    /// Converts the text given on the command line.
    /// - Throws: A ``UsageError`` naming the option and the text.
    public func value(from text: String) throws(UsageError) -> Value {
        try convert(text)
    }
}

extension Option where Value == String {
    /// Declares an option whose value is the text as given.
    public init(
        _ names: String..., valueName: String, help: String, default defaultValue: String? = nil,
        defaultDescription: String? = nil, repeatable: Bool = false
    ) {
        definition = ArgumentDefinition(
            names: names, kind: .option, valueName: valueName, help: help,
            defaultDescription: defaultDescription ?? defaultValue, isRepeatable: repeatable)
        self.defaultValue = defaultValue
        convert = { $0 }
    }
}

extension Option where Value: FixedWidthInteger {
    /// Declares an option whose value is a whole number within a range.
    /// - Parameters:
    ///   - name: The option, such as `--port`.
    ///   - valueName: What the value stands for in the help, such as `PORT`.
    ///   - range: The values accepted.
    ///   - expected: What the value must be, for the error message, such as `a port from 0 to 65535`.
    ///   - help: What it does, as sentences.
    ///   - defaultValue: The value when the option is not given.
    ///   - defaultDescription: What happens when it is not given, when a value alone does not say it.
    public static func number(
        _ name: String, valueName: String, in range: ClosedRange<Value>, expected: String, help: String,
        default defaultValue: Value? = nil, defaultDescription: String? = nil
    ) -> Option {
        Option(name, valueName: valueName, help: help, default: defaultValue, defaultDescription: defaultDescription) {
            text throws(UsageError) in
            guard let number = Value(text), range.contains(number) else {
                throw UsageError("\(name) takes \(expected), not \(text.debugDescription).")
            }
            return number
        }
    }
}

extension Option where Value == Bool {
    /// Declares an option whose value is `on` or `off`, in any case, such as `--low-power on`.
    public static func onOff(_ name: String, help: String) -> Option {
        Option(name, valueName: "on|off", help: help) { text throws(UsageError) in
            switch text.lowercased() {
            case "on": return true
            case "off": return false
            default: throw UsageError("\(name) takes on or off, not \(text.debugDescription).")
            }
        }
    }
}

extension Option where Value == Duration {
    /// Declares an option whose value is a positive number of seconds, fractions allowed, such as
    /// `--timeout 1.5`, read to the millisecond.
    /// - Parameters:
    ///   - name: The option, such as `--timeout`.
    ///   - help: What it does, as sentences.
    ///   - defaultValue: The value when the option is not given, shown in whole seconds.
    public static func seconds(_ name: String, help: String, default defaultValue: Duration? = nil) -> Option {
        Option(
            name, valueName: "SECONDS", help: help, default: defaultValue,
            defaultDescription: defaultValue.map { "\($0.components.seconds)" }
        ) { text throws(UsageError) in
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw UsageError("\(name) \(text) is not a positive number of seconds.")
            }
            // Checked before the conversion, which would trap: a number from the command line must
            // end in an error, not a crash.
            let milliseconds = (seconds * 1000).rounded(.up)
            guard milliseconds < Double(Int64.max) else {
                throw UsageError("\(name) \(text) is more seconds than can be waited; give a smaller number.")
            }
            return .milliseconds(Int64(milliseconds))
        }
    }
}
