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

    /// The defaults.
    public init() {}

    /// Whether periodic content requests may run for an app: the global switch and the app's own.
    /// - Parameter bundleIdentifier: The app's `CFBundleIdentifier`.
    public func allowsBackgroundAppRefresh(for bundleIdentifier: String) -> Bool {
        backgroundAppRefresh && backgroundAppRefreshByApp[bundleIdentifier] != false
    }

    /// Loads the settings, or returns the defaults when the file does not exist.
    /// - Parameter url: The settings file, usually ``DevicePaths/deviceSettingsFile``.
    /// - Throws: ``DeviceSettingsError`` naming the file and the key at fault.
    public static func load(from url: URL) throws -> DeviceSettings {
        guard FileManager.default.fileExists(atPath: url.path) else { return DeviceSettings() }
        let data: Data
        do {
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber
            guard (size?.intValue ?? 0) <= 1 << 20 else {
                throw DeviceSettingsError(path: url.path, key: nil, reason: "it is larger than 1 MiB")
            }
            data = try Data(contentsOf: url)
        } catch let error as DeviceSettingsError {
            throw error
        } catch {
            throw DeviceSettingsError(
                path: url.path, key: nil, reason: "it cannot be read (\(error.localizedDescription))")
        }
        let values: [String: SettingsValue]
        do {
            values = try JSONDecoder().decode([String: SettingsValue].self, from: data)
        } catch {
            throw DeviceSettingsError(path: url.path, key: nil, reason: "it is not a JSON object of settings")
        }
        var settings = DeviceSettings()
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try settings.apply(key: key, value: value, path: url.path)
        }
        return settings
    }

    /// Saves the settings atomically, creating the folder if needed.
    /// - Parameter url: The settings file, usually ``DevicePaths/deviceSettingsFile``.
    /// - Throws: ``DeviceSettingsError`` when the file cannot be written.
    public func save(to url: URL) throws {
        var object: [String: SettingsValue] = [
            "lowPowerMode": .flag(lowPowerMode),
            "backgroundAppRefresh": .flag(backgroundAppRefresh),
            "inAppContent": .flag(inAppContent),
            "externalPower": .flag(externalPower),
            "networkReachable": .flag(networkReachable),
        ]
        object["backgroundAppRefreshByApp"] = .flags(backgroundAppRefreshByApp)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(object)
        } catch {
            throw DeviceSettingsError(path: url.path, key: nil, reason: "it cannot be encoded (\(error))")
        }
        if let reason = AtomicFileWriter.write(data, to: url) {
            throw DeviceSettingsError(path: url.path, key: nil, reason: "it cannot be written (\(reason))")
        }
    }

    private mutating func apply(key: String, value: SettingsValue, path: String) throws {
        func flag() throws -> Bool {
            guard case let .flag(flag) = value else {
                throw DeviceSettingsError(path: path, key: key, reason: "\(value) is not true or false")
            }
            return flag
        }
        switch key {
        case "lowPowerMode": lowPowerMode = try flag()
        case "backgroundAppRefresh": backgroundAppRefresh = try flag()
        case "inAppContent": inAppContent = try flag()
        case "externalPower": externalPower = try flag()
        case "networkReachable": networkReachable = try flag()
        case "backgroundAppRefreshByApp":
            guard case let .flags(flags) = value else {
                throw DeviceSettingsError(
                    path: path, key: key, reason: "\(value) is not an object of app identifiers to true or false")
            }
            if let bad = flags.keys.sorted().first(where: { !DevicePaths.isSafePathComponent($0) }) {
                throw DeviceSettingsError(
                    path: path, key: key, reason: "\(DeviceSettingsError.quote(bad)) is not a bundle identifier")
            }
            backgroundAppRefreshByApp = flags
        default:
            let known =
                "backgroundAppRefresh, backgroundAppRefreshByApp, externalPower, inAppContent, lowPowerMode, networkReachable"
            throw DeviceSettingsError(path: path, key: key, reason: "it is not a known setting (known: \(known))")
        }
    }
}
