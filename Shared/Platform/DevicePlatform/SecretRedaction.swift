/*
Abstract:
Hides secrets (credentials in request headers, tokens in URL queries) from logs, traces and status.
*/

import Foundation

/// Replaces secrets with `<redacted>` wherever the service shows what a client sent.
///
/// A download's request headers may carry an app's `Authorization` token or cookies, and a
/// signed CDN URL carries its signature in the query. The service needs them to fetch the file,
/// but the device log, the trace and `backgroundassets-debug status` must not repeat them.
public enum SecretRedaction {
    /// What a secret is replaced with.
    public static let placeholder = "<redacted>"

    /// Header fields whose value is a credential.
    static let secretFields: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Query parameter names (compared in lower case) whose value is treated as a credential.
    static let secretQueryHints = ["token", "sig", "key", "auth", "password", "secret", "credential", "session"]

    /// The headers with every credential's value replaced.
    public static func redacting(headers: [String: String]) -> [String: String] {
        headers.reduce(into: [:]) { result, field in
            result[field.key] = secretFields.contains(field.key.lowercased()) ? placeholder : field.value
        }
    }

    /// The text with the secret query values of every URL in it replaced, for example
    /// `https://cdn/a.mp4?token=abc` becomes `https://cdn/a.mp4?token=<redacted>`.
    public static func redacting(text: String) -> String {
        guard mayHoldSecret(text.utf8) else { return text }
        var output = ""
        var remainder = Substring(text)
        // A query runs from "?" to the next character that cannot be part of a URL.
        while let question = remainder.firstIndex(of: "?") {
            output += remainder[...question]
            let rest = remainder[remainder.index(after: question)...]
            let end = rest.firstIndex { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == ">" || $0 == ")" } ?? rest.endIndex
            output += redactingQuery(String(rest[..<end]))
            remainder = rest[end...]
        }
        return output + remainder
    }

    /// ``redacting(text:)`` for UTF-8 bytes, such as a trace line: returned as they are, uncopied,
    /// when no URL query is in them.
    public static func redacting(utf8 bytes: [UInt8]) -> [UInt8] {
        guard mayHoldSecret(bytes) else { return bytes }
        return Array(redacting(text: String(decoding: bytes, as: UTF8.self)).utf8)
    }

    /// Whether text may hold a secret: only a URL's query can, so text without a `?` cannot.
    /// Searched as bytes: `contains("?")` on a String goes through Foundation's CFStringFind, and
    /// every trace line and log message passes here.
    private static func mayHoldSecret(_ utf8: some Sequence<UInt8>) -> Bool {
        utf8.contains(UInt8(ascii: "?"))
    }

    private static func redactingQuery(_ query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals].lowercased()
            guard secretQueryHints.contains(where: name.contains) else { return String(pair) }
            return pair[...equals] + placeholder
        }.joined(separator: "&")
    }
}
