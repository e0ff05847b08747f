/*
Abstract:
Encodes messages to JSON: the bytes Foundation's JSONEncoder writes with the protocol's settings, in half the time.
*/

import Foundation

/// Encodes a value as the protocol's JSON.
///
/// The output is byte for byte what `JSONEncoder` writes with `.sortedKeys`,
/// `.withoutEscapingSlashes` and dates as seconds since 1970 (the golden frames pin it). Every
/// download costs the service and the app a few messages each way, and Foundation's encoder, which
/// checks each value for the types it treats specially and builds a general tree first, took more
/// of their time than the rest of a message's handling; this one builds a small tree of the
/// message and writes it out once.
enum WireJSONEncoder {
    /// Encodes a value.
    /// - Parameter value: A message, or anything `Encodable` made of the protocol's types.
    /// - Returns: UTF-8 JSON.
    /// - Throws: `EncodingError` for a value JSON cannot hold (a non-finite number) or that encodes nothing.
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        let node = try WireJSONNodeEncoder.node(for: value)
        var writer = WireJSONWriter()
        writer.write(node)
        return writer.bytes
    }
}

/// A value being encoded: scalars already in their JSON text, containers filled in as the value encodes.
enum WireJSONNode {
    /// A number, `true`, `false` or `null`, as written.
    case literal(String)
    /// A string, escaped when written.
    case string(String)
    case object(WireJSONObject)
    case array(WireJSONArray)
    /// The value a nested encoder holds once its value is encoded (a super encoder's).
    case pending(WireJSONNodeEncoder)
    /// A download, written without a tree (WireJSONWriter+Downloads.swift).
    case download(DownloadDescriptor)
    /// A download status, written without a tree.
    case downloadStatus(DownloadStatus)
}

final class WireJSONObject {
    var members: [(key: String, value: WireJSONNode)] = []
}

final class WireJSONArray {
    var elements: [WireJSONNode] = []
}

/// The `Encoder` a value encodes itself into; it holds the one node the value becomes.
///
/// As in ``WireJSONDecoder``, the coding path of an error is put together while the error
/// travels out, so containers report an empty `codingPath`.
final class WireJSONNodeEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    fileprivate(set) var node: WireJSONNode?

    /// The node a value encodes to. The types JSONEncoder writes its own way are written the same:
    /// dates as seconds since 1970 (the protocol's setting), URLs as their absolute string, data in base64.
    static func node<Value: Encodable>(for value: Value) throws -> WireJSONNode {
        // Comparisons of types, not casts: asking every value whether it is a date cost more than encoding it.
        if Value.self == Date.self { return try number((value as! Date).timeIntervalSince1970) }
        if Value.self == URL.self { return .string((value as! URL).absoluteString) }
        if Value.self == Data.self { return .string((value as! Data).base64EncodedString()) }
        // Written by hand, without a tree: a status page carries a thousand of them and an app's
        // current downloads thousands, and the tree cost ten times the writing (WireJSONWriter+Downloads).
        if Value.self == DownloadStatus.self { return .downloadStatus(value as! DownloadStatus) }
        if Value.self == DownloadDescriptor.self { return .download(value as! DownloadDescriptor) }
        let encoder = WireJSONNodeEncoder()
        try value.encode(to: encoder)
        // A value that encodes nothing is an empty object, as with JSONEncoder.
        return encoder.node ?? .object(WireJSONObject())
    }

    /// Runs an encode one level down, adding `key` to the path of an error on its way out.
    static func at<Result>(_ key: any CodingKey, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let EncodingError.invalidValue(value, context) {
            throw EncodingError.invalidValue(value, .init(
                codingPath: [key] + context.codingPath, debugDescription: context.debugDescription,
                underlyingError: context.underlyingError))
        }
    }

    /// A floating-point number as JSONEncoder writes it: its shortest form, without a trailing `.0`.
    static func number(_ value: Double) throws -> WireJSONNode {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Unable to encode Double.\(value) directly in JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .literal(text)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case let .object(object) = node {
            return KeyedEncodingContainer(WireJSONKeyedEncoder<Key>(object: object))
        }
        let object = WireJSONObject()
        node = .object(object)
        return KeyedEncodingContainer(WireJSONKeyedEncoder<Key>(object: object))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case let .array(array) = node { return WireJSONUnkeyedEncoder(array: array) }
        let array = WireJSONArray()
        node = .array(array)
        return WireJSONUnkeyedEncoder(array: array)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        WireJSONSingleValueEncoder(encoder: self)
    }

    fileprivate func set(_ node: WireJSONNode) {
        self.node = node
    }
}

private struct WireJSONKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: WireJSONObject
    var codingPath: [any CodingKey] { [] }

    private func add(_ node: WireJSONNode, _ key: Key) {
        object.members.append((key.stringValue, node))
    }

    mutating func encodeNil(forKey key: Key) throws { add(.literal("null"), key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { add(.literal(value ? "true" : "false"), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { add(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        add(try WireJSONNodeEncoder.at(key) { try WireJSONNodeEncoder.number(value) }, key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        add(try WireJSONNodeEncoder.at(key) { try WireJSONNodeEncoder.number(Double(value)) }, key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { add(.literal(value.description), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { add(.literal(value.description), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { add(.literal(value.description), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { add(.literal(value.description), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { add(.literal(value.description), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { add(.literal(value.description), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { add(.literal(value.description), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { add(.literal(value.description), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { add(.literal(value.description), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { add(.literal(value.description), key) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        add(try WireJSONNodeEncoder.at(key) { try WireJSONNodeEncoder.node(for: value) }, key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = WireJSONObject()
        add(.object(nested), key)
        return KeyedEncodingContainer(WireJSONKeyedEncoder<NestedKey>(object: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = WireJSONArray()
        add(.array(nested), key)
        return WireJSONUnkeyedEncoder(array: nested)
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(forKey: Key(stringValue: "super")!)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let encoder = WireJSONNodeEncoder()
        add(.pending(encoder), key)
        return encoder
    }
}

private struct WireJSONUnkeyedEncoder: UnkeyedEncodingContainer {
    let array: WireJSONArray
    var codingPath: [any CodingKey] { [] }
    var count: Int { array.elements.count }

    private var nextKey: any CodingKey { WireJSONIndexKey(index: array.elements.count) }

    mutating func encodeNil() throws { array.elements.append(.literal("null")) }
    mutating func encode(_ value: Bool) throws { array.elements.append(.literal(value ? "true" : "false")) }
    mutating func encode(_ value: String) throws { array.elements.append(.string(value)) }
    mutating func encode(_ value: Double) throws {
        array.elements.append(try WireJSONNodeEncoder.at(nextKey) { try WireJSONNodeEncoder.number(value) })
    }
    mutating func encode(_ value: Int) throws { array.elements.append(.literal(value.description)) }
    mutating func encode(_ value: Int64) throws { array.elements.append(.literal(value.description)) }
    mutating func encode(_ value: UInt64) throws { array.elements.append(.literal(value.description)) }

    mutating func encode(_ value: some Encodable) throws {
        array.elements.append(try WireJSONNodeEncoder.at(nextKey) { try WireJSONNodeEncoder.node(for: value) })
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = WireJSONObject()
        array.elements.append(.object(nested))
        return KeyedEncodingContainer(WireJSONKeyedEncoder<NestedKey>(object: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = WireJSONArray()
        array.elements.append(.array(nested))
        return WireJSONUnkeyedEncoder(array: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = WireJSONNodeEncoder()
        array.elements.append(.pending(encoder))
        return encoder
    }
}

private struct WireJSONSingleValueEncoder: SingleValueEncodingContainer {
    let encoder: WireJSONNodeEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { encoder.set(.literal("null")) }
    mutating func encode(_ value: Bool) throws { encoder.set(.literal(value ? "true" : "false")) }
    mutating func encode(_ value: String) throws { encoder.set(.string(value)) }
    mutating func encode(_ value: Double) throws { encoder.set(try WireJSONNodeEncoder.number(value)) }
    mutating func encode(_ value: Float) throws {
        encoder.set(try WireJSONNodeEncoder.number(Double(value)))
    }
    mutating func encode(_ value: Int) throws { encoder.set(.literal(value.description)) }
    mutating func encode(_ value: Int8) throws { encoder.set(.literal(value.description)) }
    mutating func encode(_ value: Int16) throws { encoder.set(.literal(value.description)) }
    mutating func encode(_ value: Int32) throws { encoder.set(.literal(value.description)) }
    mutating func encode(_ value: Int64) throws { encoder.set(.literal(value.description)) }
    mutating func encode(_ value: UInt) throws { encoder.set(.literal(value.description)) }
    mutating func encode(_ value: UInt8) throws { encoder.set(.literal(value.description)) }
    mutating func encode(_ value: UInt16) throws { encoder.set(.literal(value.description)) }
    mutating func encode(_ value: UInt32) throws { encoder.set(.literal(value.description)) }
    mutating func encode(_ value: UInt64) throws { encoder.set(.literal(value.description)) }

    mutating func encode(_ value: some Encodable) throws {
        encoder.set(try WireJSONNodeEncoder.node(for: value))
    }
}

/// The coding key of an array element, for coding paths.
struct WireJSONIndexKey: CodingKey {
    let index: Int
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
    init(index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { index = intValue }
}
