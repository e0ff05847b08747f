/*
Abstract:
How an option's text becomes its value: as given, a whole number in a range, on/off, seconds, or a conversion of the command's own.
*/

/// Turns the text given on the command line into an option's value, and a default value back into the
/// text its help shows.
public struct ArgumentConversion<Value: Sendable>: Sendable {
    /// What the value stands for in the help when the declaration names none, such as `SECONDS`.
    public var valueName: String?
    let describe: @Sendable (Value) -> String
    let convert: @Sendable (_ text: String, _ name: String) throws(UsageError) -> Value

    /// Creates a conversion that also knows the option's name, for its messages.
    /// - Parameters:
    ///   - valueName: What the value stands for when the declaration names none.
    ///   - describe: A default value as the help shows it.
    ///   - convert: Turns the text into a value, or throws a usage error naming the option and the text.
    public init(
        valueName: String? = nil, describe: @escaping @Sendable (Value) -> String = { "\($0)" },
        naming convert: @escaping @Sendable (_ text: String, _ name: String) throws(UsageError) -> Value
    ) {
        self.valueName = valueName
        self.describe = describe
        self.convert = convert
    }

    /// Creates a conversion whose messages name the option themselves, such as a URL check.
    /// - Parameter convert: Turns the text into a value, or throws a usage error naming the option and the text.
    public init(_ convert: @escaping @Sendable (String) throws(UsageError) -> Value) {
        self.init { text, _ throws(UsageError) in try convert(text) }
    }

    /// Converts the text given on the command line.
    /// - Parameters:
    ///   - text: The value as given.
    ///   - name: The option's name, for the message.
    /// - Throws: A ``UsageError`` naming the option and the text.
    public func value(from text: String, name: String) throws(UsageError) -> Value {
        try convert(text, name)
    }
}

extension ArgumentConversion where Value == String {
    /// The text as given.
    public static var text: Self { Self { text throws(UsageError) in text } }
}

extension ArgumentConversion where Value: FixedWidthInteger {
    /// A whole number within a range.
    /// - Parameters:
    ///   - range: The values accepted.
    ///   - expected: What the value must be, for the error message, such as `a port from 0 to 65535`.
    public static func number(in range: ClosedRange<Value>, expected: String) -> Self {
        Self { text, name throws(UsageError) in
            guard let number = Value(text), range.contains(number) else {
                throw UsageError("\(name) takes \(expected), not \(text.debugDescription).")
            }
            return number
        }
    }
}

extension ArgumentConversion where Value == Bool {
    /// `on` or `off`, in any case, such as `--low-power on`.
    public static var onOff: Self {
        Self(valueName: "on|off") { text, name throws(UsageError) in
            switch text.lowercased() {
            case "on": return true
            case "off": return false
            default: throw UsageError("\(name) takes on or off, not \(text.debugDescription).")
            }
        }
    }
}

extension ArgumentConversion where Value == Duration {
    /// A positive number of seconds, fractions allowed, such as `--timeout 1.5`, read to the millisecond;
    /// a default shows in whole seconds.
    public static var seconds: Self {
        Self(valueName: "SECONDS", describe: { "\($0.components.seconds)" }) { text, name throws(UsageError) in
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
