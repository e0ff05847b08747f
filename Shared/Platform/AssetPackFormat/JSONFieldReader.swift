/*
Abstract:
Reads the fields of a JSON object, naming the exact field in every error.
*/

/// A JSON object with the path that led to it, so that a missing or mistyped field is reported as
/// `assetPacks[2].downloadSize` rather than as "the data is malformed".
package struct JSONFieldReader: Sendable {
    /// The object's members.
    package let members: [String: JSONValue]
    /// Where the object is in its document, for example `assetPacks[2]`; empty for the root.
    package let path: String
    /// The file or URL the document came from.
    package let source: String

    /// Reads the root of a document, which must be an object.
    /// - Throws: ``AssetPackFormatError`` when the document is not a JSON object.
    package init(root value: JSONValue, source: String) throws(AssetPackFormatError) {
        guard case let .object(members) = value else {
            throw AssetPackFormatError(source: source, problem: "is \(value.kind), not a JSON object; "
                + "its top level must be an object ({ … }).")
        }
        self.init(members: members, path: "", source: source)
    }

    private init(members: [String: JSONValue], path: String, source: String) {
        self.members = members
        self.path = path
        self.source = source
    }

    /// The path of a member of this object.
    package func fieldPath(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// An error about a member of this object (or the object itself when `key` is `nil`).
    package func error(_ key: String?, _ problem: String) -> AssetPackFormatError {
        AssetPackFormatError(source: source, field: key.map(fieldPath) ?? (path.isEmpty ? nil : path), problem: problem)
    }

    /// A required string member.
    package func string(_ key: String) throws(AssetPackFormatError) -> String {
        guard let value = try optionalString(key) else { throw error(key, "is missing; add it as a string.") }
        return value
    }

    /// An optional string member.
    package func optionalString(_ key: String) throws(AssetPackFormatError) -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case let .string(value)?: return value
        case let other?: throw error(key, "is \(other.kind); it must be a string.")
        }
    }

    /// A required integer member within a range.
    package func integer(_ key: String, in range: ClosedRange<Int64>) throws(AssetPackFormatError) -> Int64 {
        guard let value = try optionalInteger(key, in: range) else {
            throw error(key, "is missing; add it as a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }

    /// An optional integer member within a range.
    package func optionalInteger(_ key: String, in range: ClosedRange<Int64>) throws(AssetPackFormatError) -> Int64? {
        switch members[key] {
        case nil, .null?:
            return nil
        case let .integer(value)? where range.contains(value):
            return value
        case let .integer(value)?:
            throw error(key, "is \(value), outside \(range.lowerBound)...\(range.upperBound).")
        case let other?:
            throw error(key, "is \(other.kind); it must be a whole number.")
        }
    }

    /// A required object member.
    package func object(_ key: String) throws(AssetPackFormatError) -> JSONFieldReader {
        guard let value = try optionalObject(key) else { throw error(key, "is missing; add it as an object.") }
        return value
    }

    /// An optional object member.
    package func optionalObject(_ key: String) throws(AssetPackFormatError) -> JSONFieldReader? {
        switch members[key] {
        case nil, .null?: return nil
        case let .object(members)?: return JSONFieldReader(members: members, path: fieldPath(key), source: source)
        case let other?: throw error(key, "is \(other.kind); it must be an object.")
        }
    }

    /// A required array member, its elements with their paths (`key[index]`).
    package func array(_ key: String) throws(AssetPackFormatError) -> [(path: String, value: JSONValue)] {
        switch members[key] {
        case nil, .null?:
            throw error(key, "is missing; add it as an array.")
        case let .array(elements)?:
            return elements.enumerated().map { ("\(fieldPath(key))[\($0.offset)]", $0.element) }
        case let other?:
            throw error(key, "is \(other.kind); it must be an array.")
        }
    }

    /// An array member whose elements must all be objects.
    package func objects(_ key: String) throws(AssetPackFormatError) -> [JSONFieldReader] {
        var readers: [JSONFieldReader] = []
        for element in try array(key) {
            guard case let .object(members) = element.value else {
                throw AssetPackFormatError(source: source, field: element.path,
                                           problem: "is \(element.value.kind); it must be an object.")
            }
            readers.append(JSONFieldReader(members: members, path: element.path, source: source))
        }
        return readers
    }

    /// An array member whose elements must all be strings.
    package func strings(_ key: String) throws(AssetPackFormatError) -> [(path: String, value: String)] {
        var strings: [(String, String)] = []
        for element in try array(key) {
            guard case let .string(value) = element.value else {
                throw AssetPackFormatError(source: source, field: element.path,
                                           problem: "is \(element.value.kind); it must be a string.")
            }
            strings.append((element.path, value))
        }
        return strings
    }
}
