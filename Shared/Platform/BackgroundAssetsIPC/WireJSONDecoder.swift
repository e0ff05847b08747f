/*
Abstract:
Decodes messages from the protocol's JSON, with Foundation's rules for the types messages use.
*/

import Foundation

/// Decodes a value from the protocol's JSON: what ``WireJSONEncoder`` writes, dates as seconds since 1970.
///
/// Errors are `DecodingError`s with the coding path, as `JSONDecoder` throws them, so a refusal
/// names the field at fault. The path is put together while an error travels out, one key per
/// level, instead of being kept for every value decoded: containers report an empty `codingPath`.
enum WireJSONDecoder {
    /// Decodes a value.
    /// - Parameters:
    ///   - type: The type expected.
    ///   - payload: UTF-8 JSON.
    /// - Throws: `DecodingError`.
    static func decode<Value: Decodable>(_ type: Value.Type, from payload: some Collection<UInt8>) throws -> Value {
        let root: WireJSONValue
        do {
            root = try WireJSONParser.parse(payload)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "The payload is not valid JSON: \(error)", underlyingError: error))
        }
        // The messages sent for every download skip the Codable containers in their usual shape.
        if Value.self == ServerMessage.self, let message = ServerMessage(canonical: root) { return message as! Value }
        if Value.self == ClientMessage.self, let message = ClientMessage(canonical: root) { return message as! Value }
        if Value.self == ExtensionCall.self, let call = ExtensionCall(canonical: root) { return call as! Value }
        return try WireJSONValueDecoder.decode(type, from: root)
    }
}

/// The `Decoder` a value decodes itself from: one parsed value (its place in the message is added to an error on the way out).
private struct WireJSONValueDecoder: Decoder {
    let value: WireJSONValue
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func decode<Value: Decodable>(_ type: Value.Type, from value: WireJSONValue) throws -> Value {
        // Comparisons of types, not casts, as in the encoder, for the types it writes its own way.
        if Value.self == Date.self { return Date(timeIntervalSince1970: try WireJSONScalars.double(value)) as! Value }
        if Value.self == URL.self {
            let text = try WireJSONScalars.string(value)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Invalid URL string."))
            }
            return url as! Value
        }
        if Value.self == Data.self {
            guard let data = Data(base64Encoded: try WireJSONScalars.string(value)) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Encountered Data is not valid Base64."))
            }
            return data as! Value
        }
        return try Value(from: WireJSONValueDecoder(value: value))
    }

    /// Runs a decode one level down, adding `key` to the path of an error on its way out.
    static func at<Result>(_ key: any CodingKey, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as DecodingError {
            throw error.prefixingPath(with: [key])
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case let .object(members) = value else {
            throw WireJSONScalars.mismatch([String: Any].self, value)
        }
        return KeyedDecodingContainer(WireJSONKeyedDecoder<Key>(members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case let .array(elements) = value else { throw WireJSONScalars.mismatch([Any].self, value) }
        return WireJSONUnkeyedDecoder(elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        WireJSONSingleValueDecoder(value: value)
    }
}

private struct WireJSONKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(key: String, value: WireJSONValue)]
    /// The keys above a nested container, which its errors carry; empty for a value's own container,
    /// whose errors gain their path on the way out.
    let path: [any CodingKey]
    var codingPath: [any CodingKey] { path }
    /// Positions by key for a large object, so a hostile message with many keys cannot make
    /// decoding quadratic; small objects are searched in place.
    private let index: [String: Int]?

    init(members: [(key: String, value: WireJSONValue)], path: [any CodingKey] = []) {
        self.members = members
        self.path = path
        index = members.count > 16
            ? Dictionary(members.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { _, last in last })
            : nil
    }

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    private func find(_ key: Key) -> WireJSONValue? {
        let name = key.stringValue
        if let index { return index[name].map { members[$0].value } }
        // The last of equal keys wins. (Foundation's JSONDecoder on Linux's toolchain takes the
        // first; nothing the service or its clients write repeats a key, and the field-by-field
        // readers leave an object with a repeated key to this path.)
        return members.last { $0.key == name }?.value
    }

    private func value(for key: Key) throws -> WireJSONValue {
        guard let value = find(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: path, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return value
    }

    /// Decodes the value of `key` with `read`; an error leaves with this container's path and `key` in front.
    private func decoded<Result>(_ key: Key, _ read: (WireJSONValue) throws -> Result) throws -> Result {
        let value = try value(for: key)
        do {
            return try read(value)
        } catch let error as DecodingError {
            throw error.prefixingPath(with: path + [key])
        }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(for: key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoded(key, WireJSONScalars.bool) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoded(key, WireJSONScalars.string) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoded(key, WireJSONScalars.double) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoded(key, WireJSONScalars.integer) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoded(key, WireJSONScalars.integer) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoded(key, WireJSONScalars.integer) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoded(key, WireJSONScalars.integer) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoded(key, WireJSONScalars.integer) }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try decoded(key) { try WireJSONValueDecoder.decode(type, from: $0) }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try value(for: key)
        guard case let .object(members) = value else {
            throw WireJSONScalars.mismatch([String: Any].self, value).prefixingPath(with: path + [key])
        }
        // An enum's case and its values sit in a nested container: its errors carry the keys above it.
        return KeyedDecodingContainer(WireJSONKeyedDecoder<NestedKey>(members: members, path: path + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoded(key) { try WireJSONValueDecoder(value: $0).unkeyedContainer() }
    }

    func superDecoder() throws -> any Decoder {
        WireJSONValueDecoder(value: find(Key(stringValue: "super")!) ?? .null)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        WireJSONValueDecoder(value: find(key) ?? .null)
    }
}

private struct WireJSONUnkeyedDecoder: UnkeyedDecodingContainer {
    let elements: [WireJSONValue]
    var codingPath: [any CodingKey] { [] }
    private(set) var currentIndex = 0

    init(elements: [WireJSONValue]) {
        self.elements = elements
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// Decodes the next element, its index added to the path of an error.
    private mutating func next<Result>(_ body: (WireJSONValue) throws -> Result) throws -> Result {
        let key = WireJSONIndexKey(index: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: [key], debugDescription: "Unkeyed container is at end."))
        }
        let element = elements[currentIndex]
        currentIndex += 1
        return try WireJSONValueDecoder.at(key) { try body(element) }
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try next { try WireJSONValueDecoder.decode(type, from: $0) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next { try WireJSONValueDecoder(value: $0).container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next { try WireJSONValueDecoder(value: $0).unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next { WireJSONValueDecoder(value: $0) }
    }
}

private struct WireJSONSingleValueDecoder: SingleValueDecodingContainer {
    let value: WireJSONValue
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try WireJSONScalars.bool(value) }
    func decode(_ type: String.Type) throws -> String { try WireJSONScalars.string(value) }
    func decode(_ type: Double.Type) throws -> Double { try WireJSONScalars.double(value) }
    func decode(_ type: Float.Type) throws -> Float { Float(try WireJSONScalars.double(value)) }
    func decode(_ type: Int.Type) throws -> Int { try WireJSONScalars.integer(value) }
    func decode(_ type: Int8.Type) throws -> Int8 { try WireJSONScalars.integer(value) }
    func decode(_ type: Int16.Type) throws -> Int16 { try WireJSONScalars.integer(value) }
    func decode(_ type: Int32.Type) throws -> Int32 { try WireJSONScalars.integer(value) }
    func decode(_ type: Int64.Type) throws -> Int64 { try WireJSONScalars.integer(value) }
    func decode(_ type: UInt.Type) throws -> UInt { try WireJSONScalars.integer(value) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try WireJSONScalars.integer(value) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try WireJSONScalars.integer(value) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try WireJSONScalars.integer(value) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try WireJSONScalars.integer(value) }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try WireJSONValueDecoder.decode(type, from: value)
    }
}

/// Scalars out of parsed values, with the errors `JSONDecoder` gives for the wrong kind.
enum WireJSONScalars {
    static func mismatch(_ type: Any.Type, _ value: WireJSONValue) -> DecodingError {
        if case .null = value {
            return .valueNotFound(type, .init(codingPath: [], debugDescription: "Expected \(type) but found null."))
        }
        return .typeMismatch(type, .init(codingPath: [], debugDescription: "Expected \(type) but found \(value.kind)."))
    }

    static func bool(_ value: WireJSONValue) throws -> Bool {
        guard case let .bool(bool) = value else { throw mismatch(Bool.self, value) }
        return bool
    }

    static func string(_ value: WireJSONValue) throws -> String {
        guard case let .string(string) = value else { throw mismatch(String.self, value) }
        return string
    }

    static func double(_ value: WireJSONValue) throws -> Double {
        guard case let .number(text) = value else { throw mismatch(Double.self, value) }
        guard let double = Double(text), double.isFinite else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "Number \(text) does not fit in Double."))
        }
        return double
    }

    static func integer<Integer: FixedWidthInteger>(_ value: WireJSONValue) throws -> Integer {
        guard case let .number(text) = value else { throw mismatch(Integer.self, value) }
        if let integer = Integer(text) { return integer }
        // JSONDecoder also takes an integral number written with a fraction or an exponent.
        if let double = Double(text), double.rounded() == double, let integer = Integer(exactly: double) { return integer }
        throw DecodingError.dataCorrupted(
            .init(codingPath: [], debugDescription: "Number \(text) does not fit in \(Integer.self)."))
    }
}

extension DecodingError {
    /// The same error further down: `keys` go in front of its coding path.
    func prefixingPath(with keys: [any CodingKey]) -> DecodingError {
        func prefixed(_ context: Context) -> Context {
            Context(codingPath: keys + context.codingPath, debugDescription: context.debugDescription,
                    underlyingError: context.underlyingError)
        }
        switch self {
        case let .typeMismatch(type, context): return .typeMismatch(type, prefixed(context))
        case let .valueNotFound(type, context): return .valueNotFound(type, prefixed(context))
        case let .keyNotFound(missing, context): return .keyNotFound(missing, prefixed(context))
        case let .dataCorrupted(context): return .dataCorrupted(prefixed(context))
        @unknown default: return self
        }
    }
}
