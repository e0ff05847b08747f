/*
Abstract:
Where the app and its extension keep the manifest and the session videos: the shared app group container.
*/

// Written from Apple's documentation; compiled unchanged in Swift 6 and Swift 5 language modes.
// Edits from Apple's platforms: none. (On Apple platforms the app group is an entitlement; here both
// Info.plists also carry it, which the code does not see.)
import Foundation

/// Locations inside the app group container the app and the extension share.
enum SharedSettings {
    /// The app group, from the `AppGroupIdentifier` key both Info.plists declare.
    static let appGroupIdentifier: String = {
        guard let identifier = Bundle.main.object(forInfoDictionaryKey: "AppGroupIdentifier") as? String else {
            fatalError("The Info.plist has no AppGroupIdentifier; add the app group both targets share.")
        }
        return identifier
    }()

    /// The app group container, created by the system on first use.
    static var containerURL: URL {
        guard let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroupIdentifier) else {
            fatalError("The app group \(appGroupIdentifier) has no container; check the entitlement.")
        }
        return url
    }

    /// The folder of downloaded session videos. The system may purge `Library/Caches` under storage
    /// pressure, so a missing file means the session must be downloaded again.
    static var sessionsFolder: URL {
        let folder = containerURL.appendingPathComponent("Library/Caches/Sessions", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The manifest as last downloaded, by the app or by the extension.
    static var localManifestURL: URL {
        containerURL.appendingPathComponent("Library/Caches/manifest.json")
    }

    /// Where a session's video lives once it is downloaded.
    static func localURL(for session: Session) -> URL {
        sessionsFolder.appendingPathComponent(session.id).appendingPathExtension("mp4")
    }

    /// Whether a session's video is on the device.
    static func isDownloaded(_ session: Session) -> Bool {
        FileManager.default.fileExists(atPath: localURL(for: session).path)
    }

    /// Puts a newly downloaded manifest in place of the old one, in one atomic step.
    static func replaceLocalManifest(with downloadedURL: URL) throws {
        try? FileManager.default.createDirectory(
            at: localManifestURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try FileManager.default.replaceItemAt(localManifestURL, withItemAt: downloadedURL)
    }
}
