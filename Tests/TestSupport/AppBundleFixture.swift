/*
Abstract:
Writes an app's and its extension's Info.plists into a folder, for `backgroundassets-debug install`.
*/

import Foundation

/// The two Info.plists of an app with a downloader extension, modelled on App/Info.plist and Extension/Info.plist.
///
/// `backgroundassets-debug install --app-plist A --extension-plist E` reads them and finds the
/// executables they name (`CFBundleExecutable`) beside itself, in the build products folder.
public struct AppBundleFixture: Sendable, Equatable {
    /// The app's `CFBundleIdentifier`.
    public var bundleIdentifier = "com.example.lifecycle-test"
    /// The extension's `CFBundleIdentifier`, which must start with the app's followed by a dot.
    public var extensionBundleIdentifier = "com.example.lifecycle-test.Extension"
    /// The app group both declare in `com.apple.security.application-groups`.
    public var appGroupIdentifier = "group.com.example.lifecycle-test"
    /// The app's `CFBundleExecutable`.
    public var appExecutable = "lifecycle-test-app"
    /// The extension's `CFBundleExecutable`.
    public var extensionExecutable = "lifecycle-test-extension"
    /// `CFBundleVersion`, for both.
    public var version = "1"
    /// `BAManifestURL`.
    public var manifestURL: URL
    /// `BAInitialDownloadRestrictions` → `BADownloadAllowance`, in bytes.
    public var downloadAllowance = 134_217_728
    /// `BAInitialDownloadRestrictions` → `BAEssentialDownloadAllowance`, in bytes.
    public var essentialDownloadAllowance = 33_554_432
    /// `BAInitialDownloadRestrictions` → `BADownloadDomainAllowList`.
    public var domainAllowList = ["127.0.0.1", "localhost"]
    /// `BAMaxInstallSize`, in bytes.
    public var maxInstallSize = 134_217_728
    /// `BAEssentialMaxInstallSize`, in bytes.
    public var essentialMaxInstallSize = 33_554_432
    /// `BGTaskSchedulerPermittedIdentifiers`; left out of the Info.plist when empty.
    public var permittedTaskIdentifiers: [String] = []
    /// `UIBackgroundModes`; left out of the Info.plist when empty.
    public var backgroundModes: [String] = []
    /// Whether the app sets `BAHasManagedAssetPacks` (and `BAAppGroupID`, in both Info.plists), so
    /// the system manages its asset packs.
    public var hasManagedAssetPacks = false
    /// Whether the app sets `BAUsesAppleHosting` (with managed packs): its packs come from the device's
    /// Apple hosting server, and its Info.plist has no `BAManifestURL`, as Apple asks of such apps.
    public var usesAppleHosting = false

    /// Creates the fixture of an app whose manifest is at `manifestURL`, with the sample's allowances.
    /// - Parameter manifestURL: The app's `BAManifestURL`, such as the test's asset server's `/manifest.json`.
    public init(manifestURL: URL) {
        self.manifestURL = manifestURL
    }

    /// Writes `App-Info.plist` and `Extension-Info.plist` into a folder.
    /// - Parameter folder: The folder; created when missing.
    /// - Returns: The app's and the extension's Info.plist.
    /// - Throws: An error when a file cannot be written.
    public func write(in folder: URL) throws -> (app: URL, extension: URL) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let app = folder.appendingPathComponent("App-Info.plist")
        let appExtension = folder.appendingPathComponent("Extension-Info.plist")
        try Data(appPropertyList.utf8).write(to: app)
        try Data(extensionPropertyList.utf8).write(to: appExtension)
        return (app, appExtension)
    }

    /// The app's Info.plist as XML.
    public var appPropertyList: String {
        Self.document([
            Self.entry("CFBundleIdentifier", string: bundleIdentifier),
            Self.entry("CFBundleExecutable", string: appExecutable),
            Self.entry("CFBundleName", string: "Lifecycle Test"),
            Self.entry("CFBundleShortVersionString", string: "1.0"),
            Self.entry("CFBundleVersion", string: version),
            usesAppleHosting ? "" : Self.entry("BAManifestURL", string: manifestURL.absoluteString),
            "\t<key>BAInitialDownloadRestrictions</key>\n\t<dict>\n"
                + "\t\t<key>BADownloadAllowance</key>\n\t\t<integer>\(downloadAllowance)</integer>\n"
                + "\t\t<key>BAEssentialDownloadAllowance</key>\n\t\t<integer>\(essentialDownloadAllowance)</integer>\n"
                + "\t\t<key>BADownloadDomainAllowList</key>\n\t\t<array>\n"
                + domainAllowList.map { "\t\t\t<string>\(Self.escaped($0))</string>\n" }.joined()
                + "\t\t</array>\n\t</dict>\n",
            "\t<key>BAMaxInstallSize</key>\n\t<integer>\(maxInstallSize)</integer>\n",
            "\t<key>BAEssentialMaxInstallSize</key>\n\t<integer>\(essentialMaxInstallSize)</integer>\n",
            appGroups,
            Self.array("BGTaskSchedulerPermittedIdentifiers", permittedTaskIdentifiers),
            Self.array("UIBackgroundModes", backgroundModes),
            managedAssetPackKeys,
        ])
    }

    /// An array of strings, or nothing when it is empty.
    private static func array(_ key: String, _ values: [String]) -> String {
        guard !values.isEmpty else { return "" }
        return "\t<key>\(escaped(key))</key>\n\t<array>\n"
            + values.map { "\t\t<string>\(escaped($0))</string>\n" }.joined() + "\t</array>\n"
    }

    /// The extension's Info.plist as XML.
    public var extensionPropertyList: String {
        Self.document([
            Self.entry("CFBundleIdentifier", string: extensionBundleIdentifier),
            Self.entry("CFBundleExecutable", string: extensionExecutable),
            Self.entry("CFBundleName", string: "LifecycleTestExtension"),
            Self.entry("CFBundleShortVersionString", string: "1.0"),
            Self.entry("CFBundleVersion", string: version),
            "\t<key>EXAppExtensionAttributes</key>\n\t<dict>\n"
                + "\t\t<key>EXExtensionPointIdentifier</key>\n"
                + "\t\t<string>com.apple.background-asset-downloader-extension</string>\n\t</dict>\n",
            appGroups,
            hasManagedAssetPacks ? Self.entry("BAAppGroupID", string: appGroupIdentifier) : "",
        ])
    }

    /// `BAHasManagedAssetPacks`, `BAAppGroupID` and `BAUsesAppleHosting`, when the app has managed packs.
    private var managedAssetPackKeys: String {
        guard hasManagedAssetPacks else { return "" }
        return "\t<key>BAHasManagedAssetPacks</key>\n\t<true/>\n" + Self.entry("BAAppGroupID", string: appGroupIdentifier)
            + "\t<key>BAUsesAppleHosting</key>\n\t<\(usesAppleHosting)/>\n"
    }

    private var appGroups: String {
        "\t<key>com.apple.security.application-groups</key>\n\t<array>\n"
            + "\t\t<string>\(Self.escaped(appGroupIdentifier))</string>\n\t</array>\n"
    }

    private static func document(_ entries: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>

        """ + entries.joined() + "</dict>\n</plist>\n"
    }

    private static func entry(_ key: String, string value: String) -> String {
        "\t<key>\(escaped(key))</key>\n\t<string>\(escaped(value))</string>\n"
    }

    /// XML text with `&`, `<` and `>` escaped, so a value can never end its element early.
    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
