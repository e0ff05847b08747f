/*
Abstract:
The app's Info.plist: its identity and every Background Assets key, validated.
*/

import BackgroundAssetsIPC
import Foundation

/// What the system reads from an app's `Info.plist`, every value validated.
public struct AppInfoPlist: Sendable, Equatable, Codable {
    /// `CFBundleIdentifier`.
    public var bundleIdentifier: String
    /// `CFBundleExecutable`: the file name of the app's executable.
    public var executable: String
    /// `CFBundleShortVersionString`: the marketing version, such as `1.0`.
    public var shortVersion: String
    /// `CFBundleVersion`: the build version, which orders installs and updates.
    public var version: String
    /// `BAManifestURL`: what the system fetches before each content request; `nil` for an app
    /// installed without a downloader extension, which has no Background Assets keys.
    public var manifestURL: URL?
    /// `BAInitialDownloadRestrictions`.
    public var restrictions: InitialDownloadRestrictions
    /// `BAMaxInstallSize`: the combined size, in bytes, of the assets the system downloads at install.
    public var maxInstallSize: Int
    /// `BAEssentialMaxInstallSize`: the combined size, in bytes, of the essential assets.
    public var essentialMaxInstallSize: Int
    /// `com.apple.security.application-groups`: the app groups the app belongs to.
    ///
    /// - Note: On Apple platforms app groups are an entitlement in the code signature, not an
    ///   Info.plist key. Linux has no code signatures, so both Info.plists carry the entitlement's
    ///   key and value (an array of `group.` identifiers) directly.
    public var appGroups: [String]
    /// `BGTaskSchedulerPermittedIdentifiers` and `UIBackgroundModes`: the Background Tasks the app
    /// may register and submit. `nil` in records written before the service knew the keys.
    public var taskPermission: TaskPermission?
    /// `AppGroupIdentifier`, the key Apple's sample reads its app group from, when the file has one.
    public var appGroupIdentifier: String?

    /// Reads and validates an app's Info.plist.
    /// - Parameters:
    ///   - data: The file's bytes, an XML or binary property list.
    ///   - file: The file's name for errors, such as `App/Info.plist`.
    ///   - hasExtension: Whether the app comes with a downloader extension, which needs the
    ///     Background Assets keys; an app without one must not have them.
    /// - Throws: ``AppBundleError`` naming the first key at fault.
    public init(data: Data, file: String, hasExtension: Bool = true) throws {
        let plist = try PropertyListReader(data: data, file: file)
        bundleIdentifier = try plist.bundleIdentifier()
        executable = try plist.executableName()
        shortVersion = try plist.bundleVersion("CFBundleShortVersionString")
        version = try plist.bundleVersion("CFBundleVersion")
        if hasExtension {
            // An app whose packs Apple hosts lists them on the hosting server, so it needs no BAManifestURL
            // (Apple asks such apps to remove it); the ManagedAssetPackSettings check types the key.
            let appleHosted = plist.isTrue("BAUsesAppleHosting") && !plist.contains("BAManifestURL")
            let manifestURL = appleHosted ? nil : try Self.manifestURL(plist)
            self.manifestURL = manifestURL
            restrictions = try InitialDownloadRestrictions(reading: plist)
            if let manifestURL, !(manifestURL.host().map(restrictions.domainAllowList.allows(host:)) ?? false) {
                // A host may be 2,048 bytes long; the message names a short one in full.
                let host = manifestURL.host().map(PropertyListText.excerpt)
                throw AppBundleError(
                    file: file, key: "\(InitialDownloadRestrictions.key).BADownloadDomainAllowList",
                    value: PropertyListText.list(restrictions.domainAllowList.entries),
                    problem: "it does not allow \(host ?? "the host") of BAManifestURL",
                    remedy: "Add \(host ?? "the manifest's host") to the list."
                )
            }
            (maxInstallSize, essentialMaxInstallSize) = try Self.installSizes(plist)
        } else {
            if plist.contains("BAManifestURL") {
                throw AppBundleError(
                    file: file, key: "BAManifestURL", value: nil,
                    problem: "Background Assets needs the app's downloader extension, and none was given",
                    remedy: "Pass the extension's Info.plist with --extension-plist, or remove the Background Assets keys."
                )
            }
            manifestURL = nil
            restrictions = InitialDownloadRestrictions(downloadAllowance: 0, essentialDownloadAllowance: 0, domainAllowList: try DomainAllowList([]))
            (maxInstallSize, essentialMaxInstallSize) = (0, 0)
        }
        appGroups = try plist.appGroups()
        taskPermission = TaskPermission(
            permittedIdentifiers: plist.contains(TaskPermission.permittedIdentifiersKey)
                ? try plist.strings(TaskPermission.permittedIdentifiersKey) : [],
            backgroundModes: plist.contains(TaskPermission.backgroundModesKey)
                ? try plist.strings(TaskPermission.backgroundModesKey) : [])
        appGroupIdentifier = try plist.appGroupIdentifier(among: appGroups)
    }

    /// `BAManifestURL`: absolute https, or http on a loopback host for local development.
    private static func manifestURL(_ plist: PropertyListReader) throws -> URL {
        let key = "BAManifestURL"
        let text = try plist.string(key)
        // The same rule as every download's URL, so the manifest can always be fetched.
        guard DownloadDescriptor.urlProblem(text) == nil, let url = URL(string: text) else {
            throw AppBundleError(
                file: plist.file, key: key, value: PropertyListText.quote(text),
                problem: "it must be an absolute https URL (http only on localhost, 127.0.0.1 or ::1, for development)",
                remedy:
                    "Point BAManifestURL at the manifest on your server, such as https://cdn.example.com/manifest.json."
            )
        }
        return url
    }

    /// `BAMaxInstallSize` and `BAEssentialMaxInstallSize`: positive and non-negative, essential within the total.
    private static func installSizes(_ plist: PropertyListReader) throws -> (Int, Int) {
        let maximum = try plist.integer("BAMaxInstallSize")
        guard maximum > 0 else {
            throw AppBundleError(
                file: plist.file, key: "BAMaxInstallSize", value: String(maximum),
                problem: "it must be a positive number of bytes",
                remedy: "Set it to the uncompressed size of the assets downloaded at install."
            )
        }
        let essential = try plist.integer("BAEssentialMaxInstallSize")
        guard essential >= 0, essential <= maximum else {
            throw AppBundleError(
                file: plist.file, key: "BAEssentialMaxInstallSize", value: String(essential),
                problem: "it must be between 0 and BAMaxInstallSize (\(maximum)) bytes",
                remedy: "Set it to the uncompressed size of the essential assets, at most BAMaxInstallSize."
            )
        }
        return (maximum, essential)
    }
}
