/*
Abstract:
A log message built from a string literal and interpolated values, each with its format and privacy.
*/

/// A log message: write it as a string literal with interpolations, as with Apple's `OSLogMessage`.
///
/// ```swift
/// logger.info("Downloaded \(session.id, privacy: .public): \(bytes, align: .right(columns: 10)) bytes")
/// ```
/// Each interpolation takes Apple's options: `privacy:`, and for the types that have them `format:`
/// (``OSLogIntegerFormatting``, ``OSLogFloatFormatting``, ``OSLogBoolFormat``) and `align:`
/// (``OSLogStringAlignment``). See ``OSLogInterpolation`` for the values it accepts.
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral, Sendable {
    /// The interpolation Swift builds a message with.
    public typealias StringInterpolation = OSLogInterpolation

    /// The message as the log shows it.
    let text: String

    /// Creates a message from a literal without interpolations.
    public init(stringLiteral value: String) {
        text = value
    }

    /// Creates a message from a literal with interpolations.
    public init(stringInterpolation: OSLogInterpolation) {
        text = stringInterpolation.text
    }
}
