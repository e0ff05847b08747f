/*
Abstract:
Entity tags and entity-tag lists as RFC 9110 section 8.8.3 defines them, with strong and weak comparison.
*/

/// An entity tag such as `"abc"` or `W/"abc"`.
struct EntityTag: Sendable, Equatable {
    /// The characters between the quotes.
    var opaque: String
    /// Whether the tag carries the `W/` prefix.
    var isWeak: Bool

    init(opaque: String, isWeak: Bool = false) {
        self.opaque = opaque
        self.isWeak = isWeak
    }

    /// The tag as it appears in an `ETag` header.
    var headerValue: String {
        (isWeak ? "W/" : "") + "\"\(opaque)\""
    }

    /// Strong comparison: both tags are strong and their opaque parts are equal (used by If-Match and If-Range).
    func matchesStrongly(_ other: EntityTag) -> Bool {
        !isWeak && !other.isWeak && opaque == other.opaque
    }

    /// Weak comparison: the opaque parts are equal whatever the prefixes (used by If-None-Match).
    func matchesWeakly(_ other: EntityTag) -> Bool {
        opaque == other.opaque
    }

    /// Parses exactly one entity tag, or returns `nil`.
    init?(parsing text: Substring) {
        var scanner = EntityTagScanner(text)
        guard let tag = scanner.nextTag(), scanner.isAtEnd else { return nil }
        self = tag
    }
}

/// The value of `If-Match` or `If-None-Match`: `*` or a list of entity tags.
enum EntityTagCondition: Sendable, Equatable {
    case any
    case tags([EntityTag])

    /// Parses a field value; malformed members end the list, so they can never produce a match.
    init(parsing text: String) {
        if text.trimmingWhitespace() == "*" {
            self = .any
            return
        }
        var scanner = EntityTagScanner(Substring(text))
        var tags: [EntityTag] = []
        while let tag = scanner.nextTag() {
            tags.append(tag)
            guard scanner.skipListSeparator() else { break }
        }
        self = .tags(tags)
    }

    func matches(_ tag: EntityTag, strongly: Bool) -> Bool {
        switch self {
        case .any: true
        case .tags(let tags): tags.contains { strongly ? $0.matchesStrongly(tag) : $0.matchesWeakly(tag) }
        }
    }
}

/// Reads entity tags one at a time from a list such as `W/"a", "b"`.
private struct EntityTagScanner {
    private let characters: [UInt8]
    private var index = 0

    init(_ text: Substring) {
        characters = Array(text.utf8)
        skipWhitespace()
    }

    var isAtEnd: Bool { index == characters.count }

    mutating func nextTag() -> EntityTag? {
        skipWhitespace()
        var weak = false
        if index + 1 < characters.count, characters[index] == UInt8(ascii: "W"), characters[index + 1] == UInt8(ascii: "/") {
            weak = true
            index += 2
        }
        guard index < characters.count, characters[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var end = start
        // etagc is %x21 / %x23-7E / obs-text: anything visible except the double quote.
        while end < characters.count, characters[end] != UInt8(ascii: "\"") {
            guard characters[end] >= 0x21, characters[end] != 0x7F else { return nil }
            end += 1
        }
        guard end < characters.count else { return nil }
        index = end + 1
        skipWhitespace()
        return EntityTag(opaque: String(decoding: characters[start..<end], as: UTF8.self), isWeak: weak)
    }

    /// Skips one or more commas (empty list members are allowed); returns `false` at the end of the list.
    mutating func skipListSeparator() -> Bool {
        var sawComma = false
        while index < characters.count, characters[index] == UInt8(ascii: ",") || isWhitespace(characters[index]) {
            if characters[index] == UInt8(ascii: ",") { sawComma = true }
            index += 1
        }
        return sawComma && !isAtEnd
    }

    private mutating func skipWhitespace() {
        while index < characters.count, isWhitespace(characters[index]) { index += 1 }
    }

    private func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingWhitespace() -> Substring {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return slice
    }
}
