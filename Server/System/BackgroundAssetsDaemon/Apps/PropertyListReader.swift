/*
Abstract:
Typed, hostile-input-safe reads from a parsed Info.plist: every wrong type or missing key becomes an AppBundleError.
*/

import BackgroundAssetsIPC
import Foundation

/// One dictionary of a parsed property list, read key by key with errors that name the file and the key path.
///
/// Property lists arrive as `Any` from `PropertyListSerialization`; this is the one place that looks at
/// those dynamic values, so the rest of the validation works with Swift types only.
struct PropertyListReader {
    /// The file, as it is named in errors.
    let file: String
    /// The key path of this dictionary, empty at the top level.
    let path: String
    private let values: [String: Any]

    /// The largest file accepted: real Info.plists are a few kilobytes, so anything larger is not one.
    static let maximumFileSize = 1 << 20

    /// Parses XML or binary property list bytes whose top level must be a dictionary.
    /// - Throws: ``AppBundleError`` naming the file when the bytes are not such a property list.
    init(data: Data, file: String) throws {
        guard data.count <= Self.maximumFileSize else {
            throw AppBundleError(
                file: file, key: nil, value: "\(data.count) bytes", problem: "an Info.plist is at most 1 MiB",
                remedy: "Pass the Info.plist itself, not another file."
            )
        }
        // A set in a binary Info.plist would crash Foundation, and the service with it, instead of failing.
        if let problem = BinaryPropertyList.problem(in: data) {
            throw AppBundleError(
                file: file, key: nil, value: nil, problem: problem,
                remedy: "Write the Info.plist as XML (plutil -convert xml1), with arrays where it has sets."
            )
        }
        let parsed: Any
        do {
            parsed = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw AppBundleError(
                file: file, key: nil, value: nil, problem: "is not a readable XML or binary property list",
                remedy: "Check it with `plutil -lint` (or an XML validator) and fix the syntax."
            )
        }
        guard let dictionary = parsed as? [String: Any] else {
            throw AppBundleError(
                file: file, key: nil, value: PropertyListText.describe(parsed),
                problem: "its top level must be a dictionary",
                remedy: "Make the file's top level a <dict> of Info.plist keys."
            )
        }
        self.init(file: file, path: "", values: dictionary)
    }

    private init(file: String, path: String, values: [String: Any]) {
        self.file = file
        self.path = path
        self.values = values
    }

    /// The full key path of a key in this dictionary, as errors name it.
    func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Whether the dictionary has a value for `key`.
    func contains(_ key: String) -> Bool { values[key] != nil }

    /// Whether `key` is the Boolean true; a missing key, false, or a value of another type is not.
    func isTrue(_ key: String) -> Bool { values[key] as? Bool == true }

    /// A required, non-empty string.
    func string(_ key: String) throws -> String {
        guard let raw = values[key] else { throw AppBundleError.missing(keyPath(key), in: file, expected: "a string") }
        guard let text = raw as? String else {
            throw AppBundleError.wrongType(keyPath(key), in: file, value: raw, expected: "a string")
        }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw AppBundleError(
                file: file, key: keyPath(key), value: "\"\"", problem: "it must not be empty",
                remedy: "Give \(keyPath(key)) a value."
            )
        }
        return text
    }

    /// The largest number of bytes an Info.plist size or allowance may give: 1 TiB, more than any
    /// device stores, and far enough from `Int.max` that sums of sizes cannot overflow.
    static let maximumByteCount = 1 << 40

    /// A required number of bytes, at most ``maximumByteCount`` (booleans and reals are refused, even
    /// where they would convert; the caller checks the lower bound, which differs by key).
    func integer(_ key: String) throws -> Int {
        guard let raw = values[key] else {
            throw AppBundleError.missing(keyPath(key), in: file, expected: "an integer")
        }
        guard !PropertyListText.isBoolean(raw), let number = raw as? Int else {
            throw AppBundleError.wrongType(keyPath(key), in: file, value: raw, expected: "an <integer> number of bytes")
        }
        guard number <= Self.maximumByteCount else {
            throw AppBundleError(
                file: file, key: keyPath(key), value: String(number),
                problem: "it is larger than \(Self.maximumByteCount) bytes (1 TiB), more than any device stores",
                remedy: "Give the real size in bytes, from 0 to \(Self.maximumByteCount)."
            )
        }
        return number
    }

    /// A required array of strings.
    func strings(_ key: String) throws -> [String] {
        guard let raw = values[key] else {
            throw AppBundleError.missing(keyPath(key), in: file, expected: "an array of strings")
        }
        guard let array = raw as? [Any] else {
            throw AppBundleError.wrongType(keyPath(key), in: file, value: raw, expected: "an array of strings")
        }
        return try array.enumerated().map { index, element in
            guard let text = element as? String else {
                throw AppBundleError.wrongType(
                    "\(keyPath(key))[\(index)]", in: file, value: element, expected: "a string"
                )
            }
            return text
        }
    }

    /// A required nested dictionary, read with the same rules.
    func dictionary(_ key: String) throws -> PropertyListReader {
        guard let raw = values[key] else {
            throw AppBundleError.missing(keyPath(key), in: file, expected: "a dictionary")
        }
        guard let nested = raw as? [String: Any] else {
            throw AppBundleError.wrongType(keyPath(key), in: file, value: raw, expected: "a dictionary")
        }
        return PropertyListReader(file: file, path: keyPath(key), values: nested)
    }
}
