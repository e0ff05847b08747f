/*
Abstract:
The Info.plist keys of an app whose asset packs the system manages, read and checked in one place.
*/

import BackgroundAssetsIPC

/// What an app's Info.plist says about managed asset packs: `BAHasManagedAssetPacks`,
/// `BAAppGroupID` and `BAUsesAppleHosting`.
///
/// Read by the framework (is the asset-pack manager allowed here?) and by the system when it
/// installs the app, so both refuse the same mistakes with the same words.
public struct ManagedAssetPackSettings: Sendable, Equatable {
    /// `BAHasManagedAssetPacks`: whether the system manages the app's asset packs.
    public static let hasManagedAssetPacksKey = "BAHasManagedAssetPacks"
    /// `BAAppGroupID`: the app group the app shares with its extension, where packs are installed.
    public static let appGroupIDKey = "BAAppGroupID"
    /// `BAUsesAppleHosting`: whether Apple hosts the packs (App Store Connect); here the device's
    /// Apple hosting server plays it.
    public static let usesAppleHostingKey = "BAUsesAppleHosting"

    /// Whether the system manages the app's asset packs.
    public var hasManagedAssetPacks: Bool
    /// The app group packs are installed in, when the Info.plist names one.
    public var appGroupID: String?
    /// Whether the Info.plist asks for Apple hosting.
    public var usesAppleHosting: Bool

    /// Creates settings.
    public init(hasManagedAssetPacks: Bool, appGroupID: String?, usesAppleHosting: Bool = false) {
        self.hasManagedAssetPacks = hasManagedAssetPacks
        self.appGroupID = appGroupID
        self.usesAppleHosting = usesAppleHosting
    }

    /// Reads the keys from an Info.plist's dictionary, checking their types.
    /// - Parameters:
    ///   - infoDictionary: The Info.plist's top-level dictionary.
    ///   - source: The file, for errors (for example `App/Info.plist`).
    /// - Throws: ``AssetPackFormatError`` when a key has the wrong type or the app group is not a valid identifier.
    public init(infoDictionary: [String: Any], source: String) throws(AssetPackFormatError) {
        func boolean(_ key: String) throws(AssetPackFormatError) -> Bool {
            switch infoDictionary[key] {
            case nil: return false
            case let value as Bool: return value
            case let value?:
                throw AssetPackFormatError(source: source, field: key,
                                           problem: "is \(type(of: value)), not a Boolean; set it to <true/> or <false/>.")
            }
        }
        hasManagedAssetPacks = try boolean(Self.hasManagedAssetPacksKey)
        usesAppleHosting = try boolean(Self.usesAppleHostingKey)
        switch infoDictionary[Self.appGroupIDKey] {
        case nil:
            appGroupID = nil
        case let group as String where DevicePaths.isSafePathComponent(group):
            appGroupID = group
        case let value?:
            throw AssetPackFormatError(source: source, field: Self.appGroupIDKey, problem: "\(String(describing: value).debugSummary) "
                + "is not an app group identifier; use the group the app shares with its extension, such as "
                + "\"group.com.example.MyApp\".")
        }
    }

    /// Why the system cannot manage this app's asset packs, as a sentence naming the key and the fix,
    /// or `nil` when it can.
    public var managementProblem: String? {
        guard hasManagedAssetPacks else {
            return "its Info.plist does not set \(Self.hasManagedAssetPacksKey) to YES; add "
                + "<key>\(Self.hasManagedAssetPacksKey)</key><true/> (and \(Self.appGroupIDKey)) so the system manages its asset packs."
        }
        guard appGroupID != nil else {
            return "its Info.plist sets \(Self.hasManagedAssetPacksKey) but has no \(Self.appGroupIDKey); add the app group "
                + "the app shares with its downloader extension, where the system installs the packs."
        }
        // Apple hosting is accepted: where its packs come from is the device's Apple hosting server,
        // which the system checks when it fetches them.
        return nil
    }
}
