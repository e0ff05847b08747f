/*
Abstract:
A test argument of raw text (an HTTP request, JSON, a hostile string) that Swift Testing names on one short line.
*/

import Testing

/// Text passed to a parameterised test, shown in `swift test`'s output escaped and cut short.
///
/// Swift Testing prints every argument of a test case as the case starts. A `String` is printed as
/// it is, so an HTTP request's line breaks, a NUL or a 2 KB identifier split that line and fill the
/// output with fragments that have no test's name. Declare such a parameter as `RawText` and keep
/// the string literals: the test reads ``text``, the output shows `"GET /\r\nHost: a\r\n\r\n"`.
public struct RawText: Sendable, Hashable, ExpressibleByStringLiteral, CustomTestStringConvertible {
    /// The text itself.
    public let text: String

    /// The longest description, in characters, before the middle is left out.
    static let longestDescription = 80

    public init(_ text: String) {
        self.text = text
    }

    public init(stringLiteral text: String) {
        self.text = text
    }

    /// The text as a Swift literal (every line break, tab and control character escaped), its middle
    /// left out past ``longestDescription`` characters.
    public var testDescription: String {
        let literal = text.debugDescription
        guard literal.count > Self.longestDescription else { return literal }
        let half = Self.longestDescription / 2
        return "\(literal.prefix(half))…\(literal.suffix(half)) (\(text.utf8.count) bytes)"
    }
}
