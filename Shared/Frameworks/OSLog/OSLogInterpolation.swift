/*
Abstract:
The parts of a log message as it is written: literal text, and values rendered with their options.
*/

/// The parts of a log message, as Apple's `OSLogInterpolation` holds them; Swift builds one from
/// each string literal passed to ``Logger``.
///
/// Values are rendered as Apple's log renders them: integers and floating-point numbers with
/// printf's conversions (`format:`), padded to a column (`align:`), then shown or redacted
/// (`privacy:`).
/// - Note: Apple's interpolations accept numbers, Booleans, strings, `CustomStringConvertible`
///   values, `NSObject`s, errors and metatypes; here any other value is accepted too, with its
///   `description`, so `\(optionalValue)` compiles where Apple's compiler asks for
///   `String(describing:)`.
public struct OSLogInterpolation: StringInterpolationProtocol, Sendable {
    var text = ""
    let revealsPrivateData: Bool

    /// Reserves room for a message.
    public init(literalCapacity: Int, interpolationCount: Int) {
        self.init(literalCapacity: literalCapacity, revealingPrivateData: OSLogPrivacy.revealsPrivateData)
    }

    init(literalCapacity: Int, revealingPrivateData: Bool) {
        text.reserveCapacity(literalCapacity * 2)
        revealsPrivateData = revealingPrivateData
    }

    /// Appends the literal text between interpolations.
    public mutating func appendLiteral(_ literal: String) {
        text += literal
    }

    /// Appends any other value's description, shown or redacted according to `privacy`.
    /// - Parameters:
    ///   - value: The value.
    ///   - privacy: Whether the log shows the value.
    public mutating func appendInterpolation<Value>(
        _ value: @autoclosure () -> Value, privacy: OSLogPrivacy = .auto
    ) {
        append(String(describing: value()), privacy: privacy)
    }

    /// Appends rendered text with its privacy.
    mutating func append(_ rendered: String, privacy: OSLogPrivacy) {
        text += privacy.render(rendered, revealingPrivateData: revealsPrivateData)
    }
}
