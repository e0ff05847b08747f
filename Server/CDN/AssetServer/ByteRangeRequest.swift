/*
Abstract:
The Range header: parsing `bytes=` range sets and choosing between 200, 206 and 416 for a file of a given size.
*/

/// An inclusive span of bytes in a file, as sent in `Content-Range`.
struct ByteRange: Sendable, Equatable {
    var first: Int64
    var last: Int64

    /// The number of bytes in the range.
    var count: Int64 { last - first + 1 }
}

/// A parsed `Range` header with the `bytes` unit (RFC 9110 section 14.1).
///
/// Offsets are `Int64` everywhere, so files past 4 GiB are addressed correctly; numbers too large even for
/// `Int64` saturate rather than wrap.
struct ByteRangeRequest: Sendable, Equatable {
    /// One member of the range set.
    enum Spec: Sendable, Equatable {
        /// `first-last`
        case bounded(first: Int64, last: Int64)
        /// `first-`
        case from(first: Int64)
        /// `-length`: the last `length` bytes.
        case suffix(length: Int64)
    }

    /// What a range request means for a particular file.
    enum Evaluation: Sendable, Equatable {
        /// Send the whole file with 200.
        case full
        /// Send this part with 206.
        case partial(ByteRange)
        /// Send 416 with `Content-Range: bytes */size`.
        case unsatisfiable
    }

    var specs: [Spec]

    /// Parses a `Range` field value.
    /// - Returns: `nil` when the value is not a syntactically valid `bytes` range set; the server then ignores
    ///   the header and sends the whole file, as RFC 9110 section 14.2 allows.
    init?(parsing value: String) {
        let trimmed = value.trimmingWhitespace()
        guard let equals = trimmed.firstIndex(of: "="),
              trimmed[..<equals].lowercased() == "bytes" else { return nil }
        var specs: [Spec] = []
        for member in trimmed[trimmed.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false) {
            let text = member.trimmingWhitespace()
            if text.isEmpty { continue }  // the list syntax allows empty members
            guard let spec = Self.parseSpec(text) else { return nil }
            specs.append(spec)
        }
        guard !specs.isEmpty else { return nil }
        self.specs = specs
    }

    /// Decides what to send for a file of `size` bytes.
    ///
    /// A single satisfiable range gives `.partial`. Several ranges give `.full` when any of them is satisfiable:
    /// the server does not produce `multipart/byteranges`, a choice RFC 9110 section 14.2 permits ("a server MAY
    /// ignore the Range header field"), and downloaders only ever ask for one range to resume. When no member is
    /// satisfiable the answer is `.unsatisfiable`, including any range of an empty file.
    func evaluate(size: Int64) -> Evaluation {
        let satisfiable = specs.compactMap { Self.resolve($0, size: size) }
        guard let range = satisfiable.first else { return .unsatisfiable }
        return specs.count == 1 ? .partial(range) : .full
    }

    private static func resolve(_ spec: Spec, size: Int64) -> ByteRange? {
        switch spec {
        case let .bounded(first, last):
            guard first < size else { return nil }
            return ByteRange(first: first, last: min(last, size - 1))
        case let .from(first):
            guard first < size else { return nil }
            return ByteRange(first: first, last: size - 1)
        case let .suffix(length):
            guard length > 0, size > 0 else { return nil }
            return ByteRange(first: max(0, size - length), last: size - 1)
        }
    }

    private static func parseSpec(_ text: Substring) -> Spec? {
        guard let dash = text.firstIndex(of: "-") else { return nil }
        let firstText = text[..<dash]
        let lastText = text[text.index(after: dash)...]
        if firstText.isEmpty {
            guard let length = parseNumber(lastText) else { return nil }
            return .suffix(length: length)
        }
        guard let first = parseNumber(firstText) else { return nil }
        if lastText.isEmpty { return .from(first: first) }
        guard let last = parseNumber(lastText), first <= last else { return nil }
        return .bounded(first: first, last: last)
    }

    /// Parses 1*DIGIT, saturating at `Int64.max` instead of failing on huge values.
    private static func parseNumber(_ text: Substring) -> Int64? {
        guard !text.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            value = overflowA || overflowB ? .max : sum
        }
        return value
    }
}
