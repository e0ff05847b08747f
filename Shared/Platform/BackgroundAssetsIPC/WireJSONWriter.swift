/*
Abstract:
Writes an encoded message's nodes out as JSON text, keys sorted, as Foundation's JSONEncoder does.
*/

/// Serialises ``WireJSONNode``s: object keys sorted by their UTF-8 bytes, strings escaped as
/// `JSONEncoder` escapes them (quote, backslash and control characters; slashes and non-ASCII as they are).
///
/// Public for writers that lay JSON out by hand, as the debug tool's status output does, so that
/// strings and numbers are written one way everywhere.
public struct WireJSONWriter {
    /// The JSON written so far, UTF-8.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    public init() {
        bytes.reserveCapacity(512)
    }

    mutating func write(_ node: WireJSONNode) {
        switch node {
        case var .literal(text):
            text.withUTF8 { bytes.append(contentsOf: $0) }
        case let .string(string):
            write(string)
        case let .object(object):
            bytes.append(UInt8(ascii: "{"))
            // Sorted stably, so of equal keys the last encoded comes last; JSONEncoder keeps that one.
            let members = object.members.count < 2
                ? object.members : object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            var isFirst = true
            for (index, member) in members.enumerated() {
                if index + 1 < members.count, members[index + 1].key == member.key { continue }
                if !isFirst { bytes.append(UInt8(ascii: ",")) }
                isFirst = false
                key(member.key)
                write(member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        case let .array(array):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in array.elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case let .pending(encoder):
            write(encoder.node ?? .object(WireJSONObject()))
        case let .download(download):
            write(download)
        case let .downloadStatus(status):
            write(status)
        }
    }

    /// Appends JSON text as it is: punctuation and keys the hand-written writers spell out.
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends an integer's digits.
    public mutating func append(_ number: some BinaryInteger) {
        var digits = number.description
        digits.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `true` or `false`.
    public mutating func append(_ flag: Bool) {
        append(flag ? "true" : "false")
    }

    /// Appends an object member's key, quoted and escaped, and the colon after it.
    mutating func key(_ name: String) {
        write(name)
        append(":")
    }

    /// Appends the key a coding key names on the wire, and the colon after it.
    mutating func key(_ codingKey: some CodingKey) {
        key(codingKey.stringValue)
    }

    /// Opens an object whose first member's value is an object: `{"key":{`.
    mutating func open(_ codingKey: some CodingKey) {
        append("{")
        key(codingKey)
        append("{")
    }

    /// Appends a string, quoted and escaped.
    public mutating func write(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                appendEscaped(byte)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }
}
