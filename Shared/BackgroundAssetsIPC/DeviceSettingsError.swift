/*
Abstract:
A system/settings.json that cannot be used, naming the file, the key and the next step.
*/

/// A device settings file that cannot be read, decoded or written.
public struct DeviceSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The settings file.
    public var path: String
    /// The key at fault, or `nil` when the whole file is.
    public var key: String?
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - path: The settings file.
    ///   - key: The key at fault, or `nil`.
    ///   - reason: What is wrong.
    public init(path: String, key: String?, reason: String) {
        self.path = path
        self.key = key
        self.reason = reason
    }

    /// A string in quotes, cut short so a hostile file cannot flood a log.
    static func quote(_ text: String) -> String {
        (text.count > 80 ? String(text.prefix(80)) + "…" : text).debugDescription
    }

    /// A sentence naming the file and the key, then the next step.
    public var description: String {
        if let key {
            "The setting \"\(key)\" in \(path) is invalid: \(reason). Fix or remove it, "
                + "or change settings with backgroundassets-debug settings."
        } else {
            "The device settings \(path) are invalid: \(reason). Fix the file, or delete it to use the defaults."
        }
    }
}

/// One value of `settings.json`: a flag, an object of flags, or anything else reported by kind.
enum SettingsValue: Codable, CustomStringConvertible {
    case flag(Bool)
    case flags([String: Bool])
    case other(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Booleans first, and only real booleans: the number 1 is not `true`.
        if let flag = try? container.decode(Bool.self) {
            self = .flag(flag)
        } else if let flags = try? container.decode([String: Bool].self) {
            self = .flags(flags)
        } else if let number = try? container.decode(Double.self) {
            self = .other("the number \(number)")
        } else if let text = try? container.decode(String.self) {
            self = .other(DeviceSettingsError.quote(text))
        } else {
            self = .other("a list, an object of other values, or null")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .flag(flag): try container.encode(flag)
        case let .flags(flags): try container.encode(flags)
        case let .other(text): try container.encode(text)
        }
    }

    var description: String {
        switch self {
        case let .flag(flag): String(flag)
        case .flags: "an object"
        case let .other(text): text
        }
    }
}
