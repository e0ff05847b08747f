/*
Abstract:
The Content-Range of a 206 or 416 response: which bytes the body holds, and of how many in all.
*/

/// A parsed `Content-Range` value: `bytes first-last/complete` or `bytes */complete`.
struct ContentRange: Sendable, Equatable {
    /// The byte positions the body holds, or `nil` for the unsatisfied form `bytes */complete`.
    var range: ClosedRange<Int64>?
    /// The representation's complete length, or `nil` when the server sent `*`.
    var completeLength: Int64?

    init(range: ClosedRange<Int64>?, completeLength: Int64?) {
        self.range = range
        self.completeLength = completeLength
    }

    /// Parses a `Content-Range` field value, or returns `nil` when it is malformed or inconsistent.
    init?(parsing text: String) {
        guard text.hasPrefix("bytes ") else { return nil }
        let spec = text.dropFirst("bytes ".count)
        let halves = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        if halves[1] == "*" {
            completeLength = nil
        } else {
            guard let length = Self.number(halves[1]) else { return nil }
            completeLength = length
        }
        if halves[0] == "*" {
            guard completeLength != nil else { return nil }
            range = nil
            return
        }
        let bounds = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.number(bounds[0]), let last = Self.number(bounds[1]),
              first <= last else { return nil }
        if let completeLength, last >= completeLength { return nil }
        range = first...last
    }

    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}
