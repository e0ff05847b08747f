/*
Abstract:
A JSON document as a tree of values, decoded strictly and written back with sorted keys.
*/

import Foundation

/// One JSON value. Manifests and pack headers are read into this tree first, so every rule can be
/// checked with the field's path in hand, and custom information (`userInfo`) travels unchanged.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON text; Foundation's decoder refuses anything that is not strict JSON.
    /// - Parameters:
    ///   - data: The document.
    ///   - source: Where it came from, for the error.
    /// - Throws: ``AssetPackFormatError`` when the text is not JSON.
    public init(parsing data: Data, source: String) throws(AssetPackFormatError) {
        do {
            self = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw AssetPackFormatError(
                source: source, problem: "is not valid JSON (\(Self.summary(of: error))); check its syntax.")
        }
    }

    /// Reads a value from a Foundation decoder: booleans and whole numbers stay what they are.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Writes the value through a Foundation encoder (``encoded(pretty:)`` is the usual way out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(value): try container.encode(value)
        case let .integer(value): try container.encode(value)
        case let .number(value): try container.encode(value)
        case let .string(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        }
    }

    /// The value as JSON text: keys sorted, slashes unescaped, and with `pretty`, indented by four
    /// spaces with `"key": value` members, the same on every platform.
    public func encoded(pretty: Bool = true) -> Data {
        var text = ""
        write(to: &text, indent: pretty ? "" : nil)
        if pretty { text += "\n" }
        return Data(text.utf8)
    }

    private func write(to text: inout String, indent: String?) {
        let inner = indent.map { $0 + "    " }
        let separator = indent == nil ? "," : ",\n"
        switch self {
        case let .array(elements) where !elements.isEmpty:
            text += indent == nil ? "[" : "[\n"
            for (index, element) in elements.enumerated() {
                if index > 0 { text += separator }
                text += inner ?? ""
                element.write(to: &text, indent: inner)
            }
            text += indent.map { "\n\($0)]" } ?? "]"
        case let .object(members) where !members.isEmpty:
            text += indent == nil ? "{" : "{\n"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { text += separator }
                text += (inner ?? "") + Self.quoted(key) + (indent == nil ? ":" : ": ")
                members[key]?.write(to: &text, indent: inner)
            }
            text += indent.map { "\n\($0)}" } ?? "}"
        case .array: text += "[]"
        case .object: text += "{}"
        case .null: text += "null"
        case let .bool(value): text += value ? "true" : "false"
        case let .integer(value): text += String(value)
        case let .number(value): text += value.isFinite ? "\(value)" : "null"
        case let .string(value): text += Self.quoted(value)
        }
    }

    /// A string as a JSON string literal: quotes, backslashes and control characters (DEL too)
    /// escaped, so text from a peer cannot break the line or the document it is written into.
    public static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// What kind of value this is, for messages.
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The decoder's complaint without Foundation's type dump.
    private static func summary(of error: any Error) -> String {
        if case let DecodingError.dataCorrupted(context) = error {
            return context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription
        }
        return "\(error.localizedDescription)"
    }
}
