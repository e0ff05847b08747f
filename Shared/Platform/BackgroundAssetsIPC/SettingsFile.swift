/*
Abstract:
The one strict reader of the device's JSON settings files: system/settings.json and system/config.json.
*/

import Foundation

/// Reads a settings file strictly: a JSON object of at most 1 MiB whose every key is a known setting.
///
/// Both files the service reads at start (the device settings and the policy knobs) go through it, so
/// they refuse the same mistakes the same way; each gives its own key table and its own error type.
/// The JSON is read by the wire protocol's parser, which follows RFC 8259 to the letter: a trailing
/// comma, a comment or a duplicate key is a mistake to point at (with its line and column), not
/// something to guess the meaning of.
public enum SettingsFile {
    /// One value of a settings file, by kind; whatever else is there is kept as its description.
    public enum Value: Sendable, Equatable, CustomStringConvertible {
        case flag(Bool)
        case number(Number)
        case flags([String: Bool])
        case other(String)
        /// A string, as the file spells it.
        case text(String)

        public var description: String {
            switch self {
            case let .flag(flag): String(flag)
            case let .number(number): "the number \(number.text)"
            case .flags: "an object"
            case let .other(text): text
            case let .text(text): (text.count > 80 ? String(text.prefix(80)) + "…" : text).debugDescription
            }
        }
    }

    /// A number as the file spells it, so a whole number is told from a fraction and nothing is
    /// rounded or trapped on the way.
    public struct Number: Sendable, Equatable, CustomStringConvertible {
        /// The number's JSON text.
        public let text: String

        /// Creates a number from its JSON text.
        public init(_ text: String) {
            self.text = text
        }

        /// The value, or `nil` when it is too large for a `Double` (such as `1E400`).
        public var double: Double? {
            guard let value = Double(text), value.isFinite else { return nil }
            return value
        }

        /// The value as a whole number, or `nil` when it has a fractional part or is too large.
        ///
        /// `1e6` counts as a whole number, as people write sizes that way.
        public var integer: Int64? {
            if let exact = Int64(text) { return exact }
            // 2^53: the largest range in which every whole Double is exact.
            guard let value = double, value.rounded() == value, abs(value) <= 9_007_199_254_740_992 else { return nil }
            return Int64(value)
        }

        public var description: String { text }
    }

    /// What is wrong with a file: the key at fault, or `nil` for the whole file, and why.
    public struct Failure: Error, Sendable, Equatable {
        public var key: String?
        public var reason: String

        public init(key: String?, reason: String) {
            self.key = key
            self.reason = reason
        }
    }

    /// Applies one value to the settings, or says why it cannot be applied.
    public typealias Setter<Settings> = @Sendable (inout Settings, Value) throws(Failure) -> Void

    /// Reads a settings file and applies each key, in sorted order, through the table.
    /// - Parameters:
    ///   - url: The file.
    ///   - defaults: The settings a missing file or key leaves as they are.
    ///   - table: One setter per known key.
    ///   - oldNames: Keys kept for files written before a rename, by their current name; setting both
    ///     names is refused, since which one wins would be a guess.
    /// - Returns: The settings.
    /// - Throws: ``Failure`` naming the key at fault (the known keys, for an unknown one) or the whole file.
    public static func load<Settings>(
        _ url: URL, defaults: Settings, table: [String: Setter<Settings>], oldNames: [String: String] = [:]
    ) throws(Failure) -> Settings {
        let data: Data
        do {
            // Never through a link: as root, the service would read whatever file a link there names.
            guard let contents = try LinkRefusingFile.read(url, limit: 1 << 20) else { return defaults }
            data = contents
        } catch {
            throw Failure(key: nil, reason: error.reason)
        }
        let values = try parse(data)
        for (oldName, name) in oldNames.sorted(by: { $0.key < $1.key })
        where values[oldName] != nil && values[name] != nil {
            throw Failure(key: oldName, reason: "it is the old name of \(name), which is also set; keep only \(name)")
        }
        var settings = defaults
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let set = table[key] else {
                throw Failure(key: key, reason: "it is not a known setting (known: \(table.keys.sorted().joined(separator: ", ")))")
            }
            do {
                try set(&settings, value)
            } catch {
                // A setter shared by several keys leaves the key for the reader to name.
                throw Failure(key: error.key ?? key, reason: error.reason)
            }
        }
        return settings
    }

    /// The file's keys and values, or why it is not a JSON object of settings.
    static func parse(_ data: Data) throws(Failure) -> [String: Value] {
        guard let root = try? WireJSONParser.parse(data) else {
            throw Failure(key: nil, reason: "it is not valid JSON: \(JSONSyntax.firstError(in: data) ?? "unreadable")")
        }
        guard case let .object(members) = root else {
            throw Failure(key: nil, reason: "it is \(root.kind), not a JSON object of settings")
        }
        var values: [String: Value] = [:]
        for (key, member) in members {
            guard values[key] == nil else { throw Failure(key: key, reason: "it is set twice; keep one") }
            values[key] = value(member)
        }
        return values
    }

    private static func value(_ json: WireJSONValue) -> Value {
        switch json {
        case let .bool(flag):
            return .flag(flag)
        case let .number(text):
            return .number(Number(text))
        case let .string(text):
            return .text(text)
        case let .object(members):
            var flags: [String: Bool] = [:]
            for (key, member) in members {
                guard case let .bool(flag) = member else { return .other("an object of other values than true or false") }
                flags[key] = flag
            }
            return .flags(flags)
        case .array:
            return .other("a list")
        case .null:
            return .other("null")
        }
    }
}
