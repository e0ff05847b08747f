/*
Abstract:
A log message built from a string literal and interpolated values, each with its privacy.
*/

/// A log message: write it as a string literal with interpolations, as with Apple's `OSLogMessage`.
///
/// ```swift
/// logger.info("Downloaded \(session.id, privacy: .public) to \(path, privacy: .private)")
/// ```
/// - Note: Apple's interpolations also take `format:` and `align:` options; these take `privacy:`
///   only, and accept any value (its `description`), where Apple's accept numbers, strings,
///   `CustomStringConvertible` values, objects, and metatypes.
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral, Sendable {
    /// The parts of a message as it is written.
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
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

        /// Appends a value's description, shown or redacted according to `privacy`.
        /// - Parameters:
        ///   - value: The value.
        ///   - privacy: Whether the log shows the value.
        public mutating func appendInterpolation<Value>(
            _ value: @autoclosure () -> Value, privacy: OSLogPrivacy = .auto
        ) {
            text += privacy.render(String(describing: value()), revealingPrivateData: revealsPrivateData)
        }
    }

    /// The message as the log shows it.
    let text: String

    /// Creates a message from a literal without interpolations.
    public init(stringLiteral value: String) {
        text = value
    }

    /// Creates a message from a literal with interpolations.
    public init(stringInterpolation: StringInterpolation) {
        text = stringInterpolation.text
    }
}
