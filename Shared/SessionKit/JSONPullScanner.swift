/*
Abstract:
Reads JSON one token at a time from bytes that arrive in pieces, so a document is never held as a tree.
*/

import Foundation

/// A strict JSON (RFC 8259) reader that hands out one value at a time, for documents too large to
/// hold whole: a manifest of 100,000 sessions is 26 MB, and Foundation's `JSONDecoder` builds a tree
/// of all of it before decoding the first field.
///
/// The caller walks the document: ``beginObject()`` then ``nextKey()`` until it returns `nil`,
/// ``beginArray()`` then ``hasNextElement()`` until it returns `false`, and a scalar reader or
/// ``skipValue()`` for each value. Every mistake is a ``Mistake`` with the line and column where it is.
///
/// The protocol module has a strict parser too (`WireJSONParser`), but SessionKit compiles in an
/// Xcode project with Foundation alone, and that parser builds the tree this one exists to avoid.
struct JSONPullScanner {
    /// What kind of value comes next, read from its first character.
    enum Kind: Equatable {
        case object, array, string, number, bool, null

        /// The kind as a message names it: "an object", "a string".
        var phrase: String {
            switch self {
            case .object: "an object"
            case .array: "an array"
            case .string: "a string"
            case .number: "a number"
            case .bool: "a boolean"
            case .null: "null"
            }
        }
    }

    /// Why the bytes are not JSON, and where.
    struct Mistake: Error, Equatable, CustomStringConvertible {
        let reason: String
        let line: Int
        let column: Int
        var description: String { "\(reason) at line \(line), column \(column)" }
    }

    /// Deeper input is refused rather than walked by recursion that could exhaust the stack.
    static let maximumDepth = 256
    /// A number longer than this is refused before it is collected: no field of ours needs one.
    static let maximumNumberLength = 64

    private let nextChunk: () throws -> [UInt8]?
    private var buffer: [UInt8] = []
    private var index = 0
    /// Bytes of the chunks before `buffer`, so positions count from the document's start.
    private var consumedBefore = 0
    private var isAtEnd = false
    // Newlines are only legal between tokens (a string may not hold a raw one), so counting them
    // where whitespace is skipped is enough to give every mistake its line.
    private var line = 1
    private var lineStart = 0
    /// For each open object or array, whether its first member or element is still to come.
    private var expectingFirst: [Bool] = []
    /// A string's bytes as they are collected; kept between strings so its storage is reused.
    private var scratch: [UInt8] = []

    /// Creates a scanner over bytes handed out in pieces.
    /// - Parameter nextChunk: The next piece of the document, or `nil` after the last; its errors pass through.
    init(nextChunk: @escaping () throws -> [UInt8]?) {
        self.nextChunk = nextChunk
    }

    /// How many containers are open, the document's root included.
    var depth: Int { expectingFirst.count }

    // MARK: - Structure

    /// The kind of the next value, without reading it.
    mutating func peekKind() throws -> Kind {
        try skipWhitespace()
        guard let byte = try peekByte() else { throw mistake("unexpected end of the file") }
        switch byte {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw mistake("unexpected character")
        }
    }

    /// Opens the object that comes next.
    mutating func beginObject() throws {
        try open("{")
    }

    /// The next key of the innermost open object, its `:` consumed; `nil` at its end, which closes it.
    mutating func nextKey() throws -> String? {
        guard try hasMore(closedBy: "}") else { return nil }
        try skipWhitespace()
        guard try peekByte() == UInt8(ascii: "\"") else { throw mistake("expected a key") }
        let key = try string()
        try skipWhitespace()
        guard try peekByte() == UInt8(ascii: ":") else { throw mistake("expected ':'") }
        index += 1
        return key
    }

    /// Opens the array that comes next.
    mutating func beginArray() throws {
        try open("[")
    }

    /// Whether the innermost open array has another element; at its end, closes it.
    mutating func hasNextElement() throws -> Bool {
        try hasMore(closedBy: "]")
    }

    /// Checks that nothing but whitespace follows the document's value.
    mutating func expectEnd() throws {
        try skipWhitespace()
        guard try peekByte() == nil else { throw mistake("unexpected text after the value") }
    }

    /// Reads past the next value, checking it is JSON.
    mutating func skipValue() throws {
        switch try peekKind() {
        case .object:
            try beginObject()
            while try nextKey() != nil { try skipValue() }
        case .array:
            try beginArray()
            while try hasNextElement() { try skipValue() }
        case .string: _ = try string()
        case .number: _ = try number()
        case .bool: _ = try bool()
        case .null: try null()
        }
    }

    private mutating func open(_ opening: Unicode.Scalar) throws {
        try skipWhitespace()
        guard try peekByte() == UInt8(ascii: opening) else { throw mistake("expected '\(opening)'") }
        guard expectingFirst.count < Self.maximumDepth else {
            throw mistake("nested more than \(Self.maximumDepth) levels deep")
        }
        index += 1
        expectingFirst.append(true)
    }

    /// Before a member or element: `true` when one follows (its comma consumed), `false` at the
    /// closing character, which is consumed and closes the container.
    private mutating func hasMore(closedBy closing: Unicode.Scalar) throws -> Bool {
        try skipWhitespace()
        guard let byte = try peekByte() else { throw mistake("unexpected end of the file") }
        let isFirst = expectingFirst.last ?? false
        if byte == UInt8(ascii: closing) {
            index += 1
            expectingFirst.removeLast()
            return false
        }
        if isFirst {
            expectingFirst[expectingFirst.count - 1] = false
            return true
        }
        guard byte == UInt8(ascii: ",") else { throw mistake("expected ',' or '\(closing)'") }
        index += 1
        return true
    }

    // MARK: - Scalars

    /// Reads a `true` or `false`.
    mutating func bool() throws -> Bool {
        try skipWhitespace()
        if try peekByte() == UInt8(ascii: "t") {
            try literal("true")
            return true
        }
        try literal("false")
        return false
    }

    /// Reads a `null`.
    mutating func null() throws {
        try skipWhitespace()
        try literal("null")
    }

    private mutating func literal(_ word: StaticString) throws {
        let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for expected in bytes {
            guard try peekByte() == expected else { throw mistake("invalid literal") }
            index += 1
        }
    }

    /// Reads a number and returns its text as written, such as `-12` or `1.5e3`.
    mutating func number() throws -> String {
        try skipWhitespace()
        scratch.removeAll(keepingCapacity: true)
        let start = position
        func take() throws -> UInt8? {
            guard let byte = try peekByte() else { return nil }
            guard scratch.count < Self.maximumNumberLength else {
                throw Mistake(reason: "a number longer than \(Self.maximumNumberLength) characters",
                              line: line, column: start - lineStart + 1)
            }
            scratch.append(byte)
            index += 1
            return byte
        }
        func digits() throws -> Int {
            var count = 0
            while let byte = try peekByte(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                _ = try take()
                count += 1
            }
            return count
        }
        if try peekByte() == UInt8(ascii: "-") { _ = try take() }
        let firstDigit = try peekByte()
        let integerDigits = try digits()
        guard integerDigits > 0 else { throw mistake("invalid number") }
        guard integerDigits == 1 || firstDigit != UInt8(ascii: "0") else { throw mistake("leading zero in a number") }
        if try peekByte() == UInt8(ascii: ".") {
            _ = try take()
            guard try digits() > 0 else { throw mistake("invalid number") }
        }
        if let byte = try peekByte(), byte | 0x20 == UInt8(ascii: "e") {
            _ = try take()
            if let sign = try peekByte(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { _ = try take() }
            guard try digits() > 0 else { throw mistake("invalid number") }
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Reads a string, its escapes resolved.
    mutating func string() throws -> String {
        try skipWhitespace()
        guard try peekByte() == UInt8(ascii: "\"") else { throw mistake("expected a string") }
        index += 1
        scratch.removeAll(keepingCapacity: true)
        while true {
            // Plain bytes are copied a run at a time, up to the next quote, escape or end of the piece.
            let runStart = index
            while index < buffer.count {
                let byte = buffer[index]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                index += 1
            }
            scratch.append(contentsOf: buffer[runStart..<index])
            guard let byte = try peekByte() else { throw mistake("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                // ASCII is UTF-8 as it is, and the standard library makes it a string far faster.
                if scratch.allSatisfy({ $0 < 0x80 }) { return String(decoding: scratch, as: UTF8.self) }
                // Foundation's initialiser rather than the standard library's `String(validating:as:)`,
                // which Apple platforms have only from their 2024 releases.
                guard let text = String(bytes: scratch, encoding: .utf8) else {
                    throw mistake("a string that is not UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                try escape()
            case 0..<0x20:
                throw mistake("a control character in a string")
            default:
                continue  // the run stopped at the end of a piece; the next one is loaded now
            }
        }
    }

    private mutating func escape() throws {
        guard let escape = try peekByte() else { throw mistake("unterminated string") }
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escape)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"): scratch.append(contentsOf: String(try unicodeEscape()).utf8)
        default: throw mistake("invalid escape")
        }
    }

    /// The character of a `\uXXXX` escape, joining a surrogate pair written as two escapes.
    private mutating func unicodeEscape() throws -> Character {
        let first = try hexQuad()
        var scalar = UInt32(first)
        if (0xD800...0xDBFF).contains(first) {
            guard try peekByte() == UInt8(ascii: "\\") else { throw mistake("an unpaired surrogate") }
            index += 1
            guard try peekByte() == UInt8(ascii: "u") else { throw mistake("an unpaired surrogate") }
            index += 1
            let second = try hexQuad()
            guard (0xDC00...0xDFFF).contains(second) else { throw mistake("an unpaired surrogate") }
            scalar = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw mistake("an unpaired surrogate") }
        return Character(unicode)
    }

    private mutating func hexQuad() throws -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = try peekByte() else { throw mistake("invalid \\u escape") }
            let digit: UInt8 = switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: throw mistake("invalid \\u escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    // MARK: - Bytes

    /// The position of the next byte from the document's start.
    private var position: Int { consumedBefore + index }

    /// The next byte without consuming it, loading the next piece when this one is used up; `nil` at the end.
    private mutating func peekByte() throws -> UInt8? {
        while index == buffer.count {
            guard !isAtEnd else { return nil }
            guard let chunk = try nextChunk() else {
                isAtEnd = true
                return nil
            }
            consumedBefore += buffer.count
            buffer = chunk
            index = 0
        }
        return buffer[index]
    }

    private mutating func skipWhitespace() throws {
        while let byte = try peekByte() {
            switch byte {
            case 0x0A:
                index += 1
                line += 1
                lineStart = position
            case 0x20, 0x09, 0x0D:
                index += 1
            default:
                return
            }
        }
    }

    /// A mistake at the next byte.
    func mistake(_ reason: String) -> Mistake {
        Mistake(reason: reason, line: line, column: position - lineStart + 1)
    }
}
