/*
Abstract:
Parses a message's JSON into a small tree of values, refusing anything that is not strict JSON.
*/

/// A parsed JSON value. Numbers keep their text until a type asks for them.
enum WireJSONValue: Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([WireJSONValue])
    case object([(key: String, value: WireJSONValue)])

    /// What the value is, for error messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Parses strict JSON (RFC 8259) from bytes a peer sent, so every failure is an error, never a crash:
/// nesting is limited, strings must be valid UTF-8 without raw control characters, and nothing may follow the value.
struct WireJSONParser {
    /// Deeper input is refused rather than parsed by recursion that could exhaust the stack.
    static let maximumDepth = 256

    /// Why a payload is not JSON, and where.
    struct SyntaxError: Error, CustomStringConvertible {
        let reason: String
        let offset: Int
        var description: String { "\(reason) at byte \(offset)" }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    /// Parses one JSON value.
    /// - Parameter payload: The whole payload.
    /// - Throws: ``SyntaxError``.
    static func parse(_ payload: some Collection<UInt8>) throws -> WireJSONValue {
        let parse = { (buffer: UnsafeBufferPointer<UInt8>) throws -> WireJSONValue in
            var parser = WireJSONParser(bytes: buffer)
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.position == buffer.count else { throw parser.error("unexpected text after the value") }
            return value
        }
        if let result = try payload.withContiguousStorageIfAvailable(parse) { return result }
        return try Array(payload).withUnsafeBufferPointer(parse)
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private func error(_ reason: String) -> SyntaxError {
        SyntaxError(reason: reason, offset: position)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws -> WireJSONValue {
        guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) levels deep") }
        skipWhitespace()
        guard position < bytes.count else { throw error("unexpected end of the payload") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character")
        }
    }

    private mutating func literal(_ word: String) throws {
        for expected in word.utf8 {
            guard position < bytes.count, bytes[position] == expected else { throw error("invalid literal") }
            position += 1
        }
    }

    private mutating func object(depth: Int) throws -> WireJSONValue {
        position += 1
        var members: [(key: String, value: WireJSONValue)] = []
        if isEmpty(closedBy: "}") { return .object(members) }
        repeat {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a key") }
            let key = try string()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
            position += 1
            members.append((key, try value(depth: depth + 1)))
        } while try hasMore(closedBy: "}")
        return .object(members)
    }

    private mutating func array(depth: Int) throws -> WireJSONValue {
        position += 1
        var elements: [WireJSONValue] = []
        if isEmpty(closedBy: "]") { return .array(elements) }
        repeat {
            elements.append(try value(depth: depth + 1))
        } while try hasMore(closedBy: "]")
        return .array(elements)
    }

    /// Whether an object or array closes right after its opening, consuming the closing character.
    private mutating func isEmpty(closedBy closing: Unicode.Scalar) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: closing) else { return false }
        position += 1
        return true
    }

    /// After a member or element: `true` at a comma, `false` at the closing character, consuming either.
    private mutating func hasMore(closedBy closing: Unicode.Scalar) throws -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw error("unexpected end of the payload") }
        switch bytes[position] {
        case UInt8(ascii: ","): position += 1; return true
        case UInt8(ascii: closing): position += 1; return false
        default: throw error("expected ',' or '\(closing)'")
        }
    }

    private mutating func number() throws -> String {
        let start = position
        func digits() -> Int {
            let first = position
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                position += 1
            }
            return position - first
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let integerDigits = digits()
        guard integerDigits > 0 else { throw error("invalid number") }
        guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw error("leading zero in a number") }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw error("invalid number") }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else { throw error("invalid number") }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    private mutating func string() throws -> String {
        position += 1
        let start = position
        // Most strings have no escapes: they become a String straight from the bytes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return try validated(text)
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw error("a control character in a string") }
            position += 1
        }
        throw error("unterminated string")
    }

    private mutating func escapedString(from start: Int) throws -> String {
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try utf8.withUnsafeBufferPointer { try validated($0) }
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw error("unterminated string") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): utf8.append(contentsOf: String(try unicodeEscape()).utf8)
                default: throw error("invalid escape")
                }
            case 0..<0x20:
                throw error("a control character in a string")
            default:
                utf8.append(byte)
            }
        }
        throw error("unterminated string")
    }

    /// The character of a `\uXXXX` escape, joining a surrogate pair written as two escapes.
    private mutating func unicodeEscape() throws -> Character {
        let first = try hexQuad()
        var scalar = UInt32(first)
        if (0xD800...0xDBFF).contains(first) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
            else { throw error("an unpaired surrogate") }
            position += 2
            let second = try hexQuad()
            guard (0xDC00...0xDFFF).contains(second) else { throw error("an unpaired surrogate") }
            scalar = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw error("an unpaired surrogate") }
        return Character(unicode)
    }

    private mutating func hexQuad() throws -> UInt16 {
        guard position + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8 = switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private func validated(_ utf8: UnsafeBufferPointer<UInt8>) throws -> String {
        guard let string = String(validating: utf8, as: UTF8.self) else { throw error("a string that is not UTF-8") }
        return string
    }
}
