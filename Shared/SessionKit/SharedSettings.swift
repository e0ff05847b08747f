/*
Abstract:
Where the app and its extension keep shared data: the app group container and the paths inside it.
*/

import Foundation
#if !canImport(Darwin)
// FileManager.containerURL(forSecurityApplicationGroupIdentifier:) is Foundation's on Apple
// platforms; on Linux the BackgroundAssets stand-in provides it.
import BackgroundAssets
#endif

/// The locations the app and its downloader extension share through their app group.
///
/// Both processes must agree on these paths: the extension saves the manifest and moves
/// finished videos here before the app is ever launched, and the app reads them.
public struct SharedSettings: Sendable, Equatable {
    /// The app group this process belongs to, read from its Info.plist's `AppGroupIdentifier` as
    /// Apple's sample does.
    ///
    /// The app and the extension run from their installed bundles, so `Bundle.main` is
    /// `App/Info.plist` or `Extension/Info.plist`; `backgroundassets-debug install` checks that the
    /// key names a group both declare in `com.apple.security.application-groups`.
    /// - Note: Apple's sample stops at a `fatalError` when the key is missing. A process without a
    ///   bundle (a test, or the app run before `backgroundassets-debug install`) gets
    ///   ``defaultAppGroupIdentifier`` instead, the group both Info.plists declare.
    public static let appGroupIdentifier: String = {
        if let identifier = Bundle.main.object(forInfoDictionaryKey: appGroupIdentifierKey) as? String {
            return identifier
        }
        let groups = Bundle.main.object(forInfoDictionaryKey: applicationGroupsKey) as? [String]
        return groups?.first ?? defaultAppGroupIdentifier
    }()

    /// The Info.plist key Apple's sample reads its app group from.
    public static let appGroupIdentifierKey = "AppGroupIdentifier"

    /// The Info.plist key that lists the app groups (an entitlement on Apple platforms).
    public static let applicationGroupsKey = "com.apple.security.application-groups"

    /// The app group both `App/Info.plist` and `Extension/Info.plist` declare, for a process without a bundle.
    public static let defaultAppGroupIdentifier = "group.com.example.apple-samplecode.WWDC-Sessions"

    /// The app group these settings belong to.
    public let appGroupIdentifier: String
    /// The app group's container folder.
    public let containerURL: URL

    /// Creates the settings for an app group, finding its container under the device root.
    /// - Parameter appGroupIdentifier: The app group; the sample's own by default.
    /// - Throws: ``SessionKitError/invalidAppGroup(_:)`` when the identifier cannot name a container.
    public init(appGroupIdentifier: String = SharedSettings.appGroupIdentifier) throws {
        let fileManager = FileManager.default
        guard let containerURL = fileManager.containerURL(forSecurityApplicationGroupIdentifier: appGroupIdentifier)
        else { throw SessionKitError.invalidAppGroup(appGroupIdentifier) }
        self.init(appGroupIdentifier: appGroupIdentifier, containerURL: containerURL)
    }

    /// Creates the settings for an app group whose container is already known.
    public init(appGroupIdentifier: String, containerURL: URL) {
        self.appGroupIdentifier = appGroupIdentifier
        self.containerURL = containerURL
        // Built once: every session's file is found from here, and building a URL takes a parse.
        cachesDirectory = containerURL.appending(path: "Library/Caches", directoryHint: .isDirectory)
        sessionsDirectory = cachesDirectory.appending(path: "Sessions", directoryHint: .isDirectory)
        let path = sessionsDirectory.path
        sessionsDirectoryPath = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// `Library/Caches/` in the container: the system may empty it under storage pressure,
    /// so everything kept here must be re-creatable by downloading it again.
    public let cachesDirectory: URL

    /// The folder that holds the downloaded session videos.
    public let sessionsDirectory: URL

    /// ``sessionsDirectory``'s path, without a slash at the end: each session's file is looked for
    /// by a path made from it, without building a URL.
    public let sessionsDirectoryPath: String

    /// The local copy of the manifest, saved by whichever process fetched it last.
    public var localManifestURL: URL {
        cachesDirectory.appending(path: "manifest.json", directoryHint: .notDirectory)
    }

    /// Loads the local copy of the manifest, or returns `nil` when there is none yet.
    ///
    /// The file is decoded again only when a save replaced it since the last call in this process.
    /// - Throws: ``SessionKitError`` when the file exists but is not a valid manifest.
    public func loadLocalManifest() throws -> Manifest? {
        try LocalManifestCache.shared.manifest(at: localManifestURL)
    }

    /// Saves a manifest as the local copy, atomically.
    /// - Throws: ``SessionKitError/fileUnwritable(path:reason:)``.
    public func saveLocalManifest(_ manifest: Manifest) throws {
        let version = try manifest.saveReturningVersion(to: localManifestURL)
        // The next load of the file just saved is answered with this manifest instead of reading it
        // again: the extension saves a manifest, then loads it for its first finished download, and
        // a second copy of 100,000 sessions took it over its memory limit.
        if let version { LocalManifestCache.shared.remember(manifest, version: version, at: localManifestURL) }
    }
}
