/*
Abstract:
The simulated device's settings in system/settings.json: low-power mode, background app refresh, in-app content.
*/

import Foundation

/// The device settings that gate Background Assets, as `system/settings.json` stores them.
///
/// ```json
/// {"lowPowerMode": false, "backgroundAppRefresh": true,
///  "backgroundAppRefreshByApp": {"com.example.MyApp": false}, "inAppContent": true}
/// ```
/// Every key is optional; a missing file or key takes the default (an iPhone's out of the box).
public struct DeviceSettings: Codable, Sendable, Equatable {
    /// Low-power mode: no periodic content requests while on. Off by default.
    public var lowPowerMode = false
    /// Background App Refresh for every app: no periodic content requests while off. On by default.
    public var backgroundAppRefresh = true
    /// Background App Refresh per app, by bundle identifier; `false` turns it off for that app.
    ///
    /// As in Settings on iOS, `true` for an app cannot turn refresh on while the global switch is off.
    public var backgroundAppRefreshByApp: [String: Bool] = [:]
    /// In-app content: when off, no essential downloads and no extension run before the first launch. On by default.
    public var inAppContent = true
    /// Whether the device is on external power; Background Tasks processing requests that require
    /// it wait while this is off. On by default, like a development device on its cable.
    public var externalPower = true
    /// Whether the network is reachable; Background Tasks processing requests that require it wait
    /// while this is off. On by default.
    public var networkReachable = true
    /// The answer the device gives an app that asks to post notifications, when the app has no
    /// answer of its own in ``notificationsByApp``; `nil` (the default) allows.
    ///
    /// Optional, and absent from the file and the wire until set, so settings written before
    /// notifications existed read and encode as they did.
    public var notifications: Bool?
    /// The answer for each app that has one, by bundle identifier, as a person gives it in Settings.
    public var notificationsByApp: [String: Bool]?
    /// The server that plays Apple's hosting of asset packs (App Store Connect) for this device, as a
    /// development override points a device at a mock server; `nil` (the default) when none is set.
    ///
    /// An app whose Info.plist sets `BAUsesAppleHosting` has its packs' download manifest fetched
    /// from `SERVER/apple-hosting/BUNDLE-ID/manifest.json`. Absent from the file and the wire until set.
    public var appleHostingServer: String?

    /// The defaults.
    public init() {}

    /// Whether an app that asks may post notifications: its own answer, else the device's default.
    /// - Parameter bundleIdentifier: The app's `CFBundleIdentifier`.
    public func allowsNotifications(for bundleIdentifier: String) -> Bool {
        notificationsByApp?[bundleIdentifier] ?? notifications ?? true
    }

    /// Whether periodic content requests may run for an app: the global switch and the app's own.
    /// - Parameter bundleIdentifier: The app's `CFBundleIdentifier`.
    public func allowsBackgroundAppRefresh(for bundleIdentifier: String) -> Bool {
        backgroundAppRefresh && backgroundAppRefreshByApp[bundleIdentifier] != false
    }

    /// Loads the settings, or returns the defaults when the file does not exist.
    /// - Parameter url: The settings file, usually ``DevicePaths/deviceSettingsFile``.
    /// - Throws: ``DeviceSettingsError`` naming the file and the key at fault.
    public static func load(from url: URL) throws -> DeviceSettings {
        do {
            return try SettingsFile.load(url, defaults: DeviceSettings(), table: keys)
        } catch {
            throw DeviceSettingsError(path: url.path, key: error.key, reason: error.reason)
        }
    }

    /// Every key of `settings.json` and how its value is applied.
    private static let keys: [String: SettingsFile.Setter<DeviceSettings>] = [
        "lowPowerMode": { settings, value throws(SettingsFile.Failure) in settings.lowPowerMode = try flag(value) },
        "backgroundAppRefresh": { settings, value throws(SettingsFile.Failure) in settings.backgroundAppRefresh = try flag(value) },
        "inAppContent": { settings, value throws(SettingsFile.Failure) in settings.inAppContent = try flag(value) },
        "externalPower": { settings, value throws(SettingsFile.Failure) in settings.externalPower = try flag(value) },
        "networkReachable": { settings, value throws(SettingsFile.Failure) in settings.networkReachable = try flag(value) },
        "notifications": { settings, value throws(SettingsFile.Failure) in settings.notifications = try flag(value) },
        "notificationsByApp": { settings, value throws(SettingsFile.Failure) in
            settings.notificationsByApp = try appFlags(value, key: "notificationsByApp")
        },
        "appleHostingServer": { settings, value throws(SettingsFile.Failure) in
            guard case let .text(text) = value, DownloadDescriptor.urlProblem(text) == nil else {
                throw SettingsFile.Failure(key: "appleHostingServer", reason: "\(value) is not an https URL (or http on "
                    + "this machine)")
            }
            settings.appleHostingServer = text
        },
        "backgroundAppRefreshByApp": { settings, value throws(SettingsFile.Failure) in
            settings.backgroundAppRefreshByApp = try appFlags(value, key: "backgroundAppRefreshByApp")
        },
    ]

    /// An object of bundle identifiers to true or false.
    private static func appFlags(_ value: SettingsFile.Value, key: String) throws(SettingsFile.Failure) -> [String: Bool] {
        guard case let .flags(flags) = value else {
            throw SettingsFile.Failure(key: key, reason: "\(value) is not an object of app identifiers to true or false")
        }
        if let bad = flags.keys.sorted().first(where: { !DevicePaths.isSafePathComponent($0) }) {
            throw SettingsFile.Failure(key: key, reason: "\(DeviceSettingsError.quote(bad)) is not a bundle identifier")
        }
        return flags
    }

    private static func flag(_ value: SettingsFile.Value) throws(SettingsFile.Failure) -> Bool {
        guard case let .flag(flag) = value else {
            throw SettingsFile.Failure(key: nil, reason: "\(value) is not true or false")
        }
        return flag
    }

    /// Saves the settings atomically, creating the folder if needed.
    /// - Parameter url: The settings file, usually ``DevicePaths/deviceSettingsFile``.
    /// - Throws: ``DeviceSettingsError`` when the file cannot be written.
    public func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(self)
        } catch {
            throw DeviceSettingsError(path: url.path, key: nil, reason: "it cannot be encoded (\(error))")
        }
        if let reason = AtomicFileWriter.write(data, to: url, followingFolderLink: false) {
            throw DeviceSettingsError(path: url.path, key: nil, reason: "it cannot be written (\(reason))")
        }
    }
}
