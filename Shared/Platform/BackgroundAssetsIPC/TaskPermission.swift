/*
Abstract:
Apple's Info.plist rules for Background Tasks: permitted identifiers and background modes.
*/

/// Checks a task identifier against an app's Info.plist, as the system does before it accepts a
/// handler or a request.
public struct TaskPermission: Codable, Sendable, Equatable {
    /// The Info.plist key listing every task identifier the app may register and submit.
    public static let permittedIdentifiersKey = "BGTaskSchedulerPermittedIdentifiers"
    /// The Info.plist key listing the app's background modes.
    public static let backgroundModesKey = "UIBackgroundModes"

    /// The identifiers in `BGTaskSchedulerPermittedIdentifiers`.
    public var permittedIdentifiers: [String]
    /// The entries of `UIBackgroundModes`.
    public var backgroundModes: [String]

    /// Reads the two keys from an Info.plist's contents; a missing or malformed key permits nothing.
    /// - Parameter infoDictionary: The app's Info.plist.
    public init(infoDictionary: [String: Any]) {
        permittedIdentifiers = infoDictionary[Self.permittedIdentifiersKey] as? [String] ?? []
        backgroundModes = infoDictionary[Self.backgroundModesKey] as? [String] ?? []
    }

    /// Creates a permission from the two lists.
    public init(permittedIdentifiers: [String], backgroundModes: [String]) {
        self.permittedIdentifiers = permittedIdentifiers
        self.backgroundModes = backgroundModes
    }

    /// Why the identifier may not be registered, or `nil` when it is listed, or matches (or is) a
    /// `prefix.*` entry, which permits continued-processing identifiers.
    /// - Parameter identifier: A task identifier.
    public func refusalToRegister(_ identifier: String) -> String? {
        guard permittedIdentifiers.contains(identifier) || wildcardEntry(matching: identifier) != nil else {
            return "The task identifier \"\(identifier.prefix(200))\" is not in the app's "
                + "\(Self.permittedIdentifiersKey) (\(listed)), and no entry ending in .* matches it. "
                + "Add it to App/Info.plist and install the app again."
        }
        return nil
    }

    /// Why a request may not be submitted, or `nil` when the app permits it.
    /// - Parameters:
    ///   - identifier: The task identifier.
    ///   - kind: Refresh, processing or continued processing.
    ///   - bundleIdentifier: The app's bundle identifier, which a continued-processing identifier's
    ///     `prefix.*` entry must start with; `nil` when the caller does not know it.
    public func refusalToSubmit(
        _ identifier: String, kind: TaskRequestDescriptor.Kind, bundleIdentifier: String? = nil
    ) -> String? {
        if kind == .continuedProcessing { return refusalToSubmitContinuedProcessing(identifier, bundleIdentifier: bundleIdentifier) }
        guard permittedIdentifiers.contains(identifier) else {
            return "The task identifier \"\(identifier.prefix(200))\" is not in the app's "
                + "\(Self.permittedIdentifiersKey) (\(listed)). Add it to App/Info.plist and install the app again."
        }
        guard let mode = kind.backgroundMode, backgroundModes.contains(mode) else {
            let mode = kind.backgroundMode ?? ""
            return "A \(kind.displayName) request needs \"\(mode)\" in the app's \(Self.backgroundModesKey), which has "
                + "\(backgroundModes.isEmpty ? "no entries" : backgroundModes.joined(separator: ", ")). "
                + "Add it to App/Info.plist and install the app again."
        }
        return nil
    }

    /// The `prefix.*` entry that permits `identifier`, if any: `identifier` is the entry itself, or
    /// `prefix.` followed by at least one character.
    /// - Parameter identifier: A task identifier.
    public func wildcardEntry(matching identifier: String) -> String? {
        permittedIdentifiers.first { entry in
            guard entry.hasSuffix(".*"), entry.count > 2 else { return false }
            let prefix = entry.dropLast()
            return identifier == entry || (identifier.hasPrefix(prefix) && identifier.count > prefix.count)
        }
    }

    private func refusalToSubmitContinuedProcessing(_ identifier: String, bundleIdentifier: String?) -> String? {
        let example = "\(bundleIdentifier ?? "com.example.MyApp").export.*"
        guard let entry = wildcardEntry(matching: identifier), identifier != entry else {
            return "The continued-processing identifier \"\(identifier.prefix(200))\" matches no entry ending in .* "
                + "in the app's \(Self.permittedIdentifiersKey) (\(listed)). Add one, such as \(example), "
                + "install the app again, and submit an identifier it matches, such as \(example.dropLast())1."
        }
        if let bundleIdentifier, !entry.hasPrefix(bundleIdentifier + ".") {
            return "The entry \(entry) that permits the continued-processing identifier \"\(identifier.prefix(200))\" "
                + "does not start with the app's bundle identifier, \(bundleIdentifier). Use one such as \(example)."
        }
        return nil
    }

    private var listed: String {
        permittedIdentifiers.isEmpty ? "empty" : permittedIdentifiers.joined(separator: ", ")
    }
}
