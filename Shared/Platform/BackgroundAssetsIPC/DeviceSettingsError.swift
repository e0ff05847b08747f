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
