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

    /// Why the identifier may not be used at all, or `nil` when it is listed.
    /// - Parameter identifier: A task identifier.
    public func refusalToRegister(_ identifier: String) -> String? {
        guard permittedIdentifiers.contains(identifier) else {
            return "The task identifier \"\(identifier.prefix(200))\" is not in the app's "
                + "\(Self.permittedIdentifiersKey) (\(permittedIdentifiers.isEmpty ? "empty" : permittedIdentifiers.joined(separator: ", "))). "
                + "Add it to App/Info.plist and install the app again."
        }
        return nil
    }

    /// Why a request may not be submitted, or `nil` when the app permits it.
    /// - Parameters:
    ///   - identifier: The task identifier.
    ///   - kind: Refresh or processing.
    public func refusalToSubmit(_ identifier: String, kind: TaskRequestDescriptor.Kind) -> String? {
        if let refusal = refusalToRegister(identifier) { return refusal }
        guard backgroundModes.contains(kind.backgroundMode) else {
            return "A \(kind == .appRefresh ? "refresh" : "processing") request needs \"\(kind.backgroundMode)\" in the "
                + "app's \(Self.backgroundModesKey), which has \(backgroundModes.isEmpty ? "no entries" : backgroundModes.joined(separator: ", ")). "
                + "Add it to App/Info.plist and install the app again."
        }
        return nil
    }
}
