/*
Abstract:
Short, bounded descriptions of property list values for error messages.
*/

import Foundation

/// Describes untrusted property list values in a few words, never echoing more than a short prefix.
enum PropertyListText {
    /// The longest excerpt of a string value quoted in an error.
    static let maximumExcerpt = 80

    /// A short description of a value: a quoted string, a number, or its kind.
    static func describe(_ value: Any) -> String {
        if isBoolean(value) { return (value as? Bool).map { $0 ? "<true/>" : "<false/>" } ?? "a boolean" }
        if let text = value as? String { return quote(text) }
        if let number = value as? Int { return String(number) }
        if let number = value as? Double { return "the real number \(number)" }
        if value is [Any] { return "an array" }
        if value is [String: Any] { return "a dictionary" }
        if value is Data { return "data" }
        if value is Date { return "a date" }
        return "a value of another type"
    }

    /// A string in quotes, cut to ``maximumExcerpt`` characters so hostile input cannot flood a log.
    static func quote(_ text: String) -> String {
        // debugDescription adds the quotes and escapes control characters and quotes inside.
        excerpt(text).debugDescription
    }

    /// A string cut to ``maximumExcerpt`` characters, for a value a message names without quotes,
    /// such as a host a URL parsed to (which has no quotes or control characters).
    static func excerpt(_ text: String) -> String {
        text.count > maximumExcerpt ? String(text.prefix(maximumExcerpt)) + "…" : text
    }

    /// A list of strings in brackets, each quoted short, at most five shown, so a hostile list stays readable.
    static func list(_ items: [String]) -> String {
        let shown = items.prefix(5).map(quote).joined(separator: ", ")
        return items.count > 5 ? "[\(shown), and \(items.count - 5) more]" : "[\(shown)]"
    }

    /// Whether a parsed value is a property list boolean (`<true/>` or `<false/>`).
    ///
    /// Casts cannot tell: on Apple platforms booleans and integers are both `NSNumber` and `true as? Int`
    /// succeeds, and on Linux `<integer>0</integer>` arrives as an `NSNumber` for which `is Bool` is true.
    /// So the number's Core Foundation type decides on Apple platforms, and the exact dynamic type
    /// on Linux, where `<true/>` and `<false/>` arrive as Swift `Bool`.
    static func isBoolean(_ value: Any) -> Bool {
        #if canImport(Darwin)
        if let number = value as? NSNumber { return CFGetTypeID(number) == CFBooleanGetTypeID() }
        #endif
        return type(of: value) == Bool.self
    }
}
