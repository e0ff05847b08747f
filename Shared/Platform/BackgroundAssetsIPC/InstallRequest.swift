/*
Abstract:
What the debug tool sends to install or update an app: where its Info.plists and executables are.
*/

/// An app bundle to install, as `backgroundassets-debug install` describes it.
///
/// The service reads and validates both Info.plists itself, so a refusal names the key at fault
/// whichever client asked.
public struct InstallRequest: Codable, Sendable, Equatable {
    /// The app's Info.plist, an absolute path.
    public var appPlistPath: String
    /// The extension's Info.plist, an absolute path; `nil` installs the app without a downloader extension.
    public var extensionPlistPath: String?
    /// The folder holding both executables (named by `CFBundleExecutable`), an absolute path.
    public var executablesDirectory: String
    /// A `CFBundleVersion` that replaces the app's (and the extension's), to install an update
    /// without editing the Info.plists; `nil` keeps the Info.plists' version.
    public var version: String?

    /// The error domain of a refused install; the message names the Info.plist key at fault.
    public static let refusalDomain = "BackgroundAssetsInstallErrorDomain"
    /// The code of a refusal because another version of the app is still installing: the same
    /// request succeeds once that install has ended.
    public static let busyCode = 2

    /// Creates an install request.
    /// - Parameters:
    ///   - appPlistPath: The app's Info.plist.
    ///   - extensionPlistPath: The extension's Info.plist, or `nil` for an app without a downloader extension.
    ///   - executablesDirectory: The folder holding both executables.
    ///   - version: A `CFBundleVersion` to install instead of the Info.plists' own.
    public init(appPlistPath: String, extensionPlistPath: String?, executablesDirectory: String, version: String? = nil) {
        self.appPlistPath = appPlistPath
        self.extensionPlistPath = extensionPlistPath
        self.executablesDirectory = executablesDirectory
        self.version = version
    }
}

/// A change to the device settings; `nil` fields stay as they are.
public struct SettingsChange: Codable, Sendable, Equatable {
    /// Low-power mode on or off.
    public var lowPowerMode: Bool?
    /// Background App Refresh on or off, for every app or, with ``app``, for one.
    public var backgroundAppRefresh: Bool?
    /// The app whose own switch ``backgroundAppRefresh`` or ``notifications`` sets.
    public var app: String?
    /// In-app content on or off.
    public var inAppContent: Bool?
    /// External power on or off (Background Tasks processing requests).
    public var externalPower: Bool?
    /// The network reachable or not (Background Tasks processing requests).
    public var networkReachable: Bool?
    /// Whether apps that ask may post notifications: every app's default or, with ``app``, one app's answer.
    public var notifications: Bool?
    /// The server that plays Apple's hosting of asset packs: an https URL (http on this machine), or
    /// the empty string to remove it.
    public var appleHostingServer: String?

    /// Creates a change.
    /// - Parameters:
    ///   - lowPowerMode: Low-power mode, or `nil` to leave it.
    ///   - backgroundAppRefresh: Background App Refresh, or `nil` to leave it.
    ///   - app: The app whose switch `backgroundAppRefresh` or `notifications` sets; `nil` sets the device's.
    ///   - inAppContent: In-app content, or `nil` to leave it.
    ///   - externalPower: External power, or `nil` to leave it.
    ///   - networkReachable: Network reachability, or `nil` to leave it.
    ///   - notifications: Whether apps that ask may notify (one app's with `app`), or `nil` to leave it.
    ///   - appleHostingServer: The Apple hosting server, `""` to remove it, or `nil` to leave it.
    public init(
        lowPowerMode: Bool? = nil, backgroundAppRefresh: Bool? = nil, app: String? = nil, inAppContent: Bool? = nil,
        externalPower: Bool? = nil, networkReachable: Bool? = nil, notifications: Bool? = nil,
        appleHostingServer: String? = nil
    ) {
        self.lowPowerMode = lowPowerMode
        self.backgroundAppRefresh = backgroundAppRefresh
        self.app = app
        self.inAppContent = inAppContent
        self.externalPower = externalPower
        self.networkReachable = networkReachable
        self.notifications = notifications
        self.appleHostingServer = appleHostingServer
    }

    /// Whether the change changes nothing (the tool then just shows the settings).
    public var isEmpty: Bool {
        lowPowerMode == nil && backgroundAppRefresh == nil && inAppContent == nil && externalPower == nil
            && networkReachable == nil && notifications == nil && appleHostingServer == nil
    }
}
