/*
Abstract:
Why the registry of installed apps could not do what was asked, naming the app or the record file.
*/

/// An error of ``AppRegistry``: a bad identifier, an app that is not installed, or a record that cannot be used.
public enum AppRegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The identifier cannot name a folder (empty, `/`, `..`, a leading dot, other characters).
    case invalidBundleIdentifier(String)
    /// No app with this identifier is installed.
    case notInstalled(String)
    /// An app's record exists but cannot be read or decoded, or belongs to another app.
    case unreadableRecord(path: String, reason: String)
    /// An app's record or folder could not be written or removed.
    case unwritable(path: String, reason: String)

    /// A sentence naming the app or file and the next step.
    public var description: String {
        switch self {
        case let .invalidBundleIdentifier(identifier):
            "The bundle identifier \(PropertyListText.quote(identifier)) cannot name an installed app: "
                + "use letters, digits, '.', '-' and '_' only, not starting with a dot."
        case let .notInstalled(identifier):
            "No app \(identifier) is installed. Install it with backgroundassets-debug install, "
                + "or list the installed apps with backgroundassets-debug status."
        case let .unreadableRecord(path, reason):
            "The installed app's record \(path) cannot be used: \(reason). "
                + "Reinstall the app with backgroundassets-debug install, or delete its folder."
        case let .unwritable(path, reason):
            "The installed app's record \(path) cannot be written: \(reason). "
                + "Check the device root's free space and permissions."
        }
    }
}
