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

    /// The value as JSON text: keys sorted, slashes unescaped, indented when `pretty`.
    public func encoded(pretty: Bool = true) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty
            ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // A tree of plain values always encodes; a non-finite number is the one thing JSON cannot hold,
        // and the reader never produces one.
        return (try? encoder.encode(self)) ?? Data("null".utf8)
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
