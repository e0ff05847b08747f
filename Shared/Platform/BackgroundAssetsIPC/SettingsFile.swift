/*
Abstract:
The one strict reader of the device's JSON settings files: system/settings.json and system/config.json.
*/

import Foundation

/// Reads a settings file strictly: a JSON object of at most 1 MiB whose every key is a known setting.
///
/// Both files the service reads at start (the device settings and the policy knobs) go through it, so
/// they refuse the same mistakes the same way; each gives its own key table and its own error type.
public enum SettingsFile {
    /// One value of a settings file, by kind; whatever else is there is kept as its description.
    public enum Value: Codable, Sendable, CustomStringConvertible {
        case flag(Bool)
        case number(Double)
        case flags([String: Bool])
        case other(String)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            // Booleans first, and only real booleans: the number 1 is not `true`, nor `true` the number 1.
            if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let flags = try? container.decode([String: Bool].self) {
                self = .flags(flags)
            } else if let text = try? container.decode(String.self) {
                self = .other((text.count > 80 ? String(text.prefix(80)) + "…" : text).debugDescription)
            } else {
                self = .other("a list, an object of other values, or null")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case let .flag(flag): try container.encode(flag)
            case let .number(number): try container.encode(number)
            case let .flags(flags): try container.encode(flags)
            case let .other(text): try container.encode(text)
            }
        }

        public var description: String {
            switch self {
            case let .flag(flag): String(flag)
            case let .number(number): "the number \(number)"
            case .flags: "an object"
            case let .other(text): text
            }
        }
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
        guard FileManager.default.fileExists(atPath: url.path) else { return defaults }
        let data: Data
        do {
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber
            guard (size?.intValue ?? 0) <= 1 << 20 else { throw Failure(key: nil, reason: "it is larger than 1 MiB") }
            data = try Data(contentsOf: url)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(key: nil, reason: "it cannot be read (\(error.localizedDescription))")
        }
        let values: [String: Value]
        do {
            values = try JSONDecoder().decode([String: Value].self, from: data)
        } catch {
            throw Failure(key: nil, reason: "it is not a JSON object of settings")
        }
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
}
