/*
Abstract:
The Background Assets app extension: the downloads to schedule when the system asks for content.
*/

import BackgroundAssets
import Foundation
import OSLog
import SessionKit

/// The downloader extension the system launches to fetch sessions while the app isn't running.
///
/// The system starts it when the app is installed or updated and, depending on how often the app
/// is used, periodically to check for new content; and when one of the app's downloads ends while
/// the app isn't running. The protocol supplies `main()`, so this type is the whole entry point.
@main
struct BackgroundDownloadHandler: BADownloaderExtension {
    func downloads(
        for request: BAContentRequest, manifestURL: URL, extensionInfo: BAAppExtensionInfo
    ) -> Set<BADownload> {
        let settings = SharedSettings.shared
        let manifest: Manifest
        do {
            // Load the downloaded manifest and parse it to ensure it's valid. The `manifestURL`
            // is read-only, and is deleted once this method returns. Relative session URLs
            // resolve against the manifest's remote URL, the app's `BAManifestURL`.
            manifest = try Manifest.load(from: manifestURL, baseURL: SharedSettings.manifestURL())

            // Atomically save the parsed manifest to its final location in the app group. Because
            // the save is an atomic replace, acquiring exclusive control isn't necessary.
            try settings.saveLocalManifest(manifest)
        } catch {
            Logger.ext.error("Failed to load and replace the manifest: \(error.localizedDescription)")
            return []
        }

        // Essential downloads contribute to the app's installation progress and run before the
        // app can launch, so the system only accepts them during an install or an update.
        let essentialDownloadsPermitted = request == .install || request == .update

        // The final set of downloads to schedule: every session that isn't on the device yet.
        var downloadsToSchedule: Set<BADownload> = []
        // Each session is checked as the loop reaches it, without a list of them all: a manifest can
        // list 100,000 sessions, and the extension must stay within its memory limit.
        for session in manifest.sessions {
            guard LocalSession(session: session, settings: settings).state == .remote else { continue }
            let isEssential = session.essential && essentialDownloadsPermitted
            let download = BAURLDownload(
                identifier: session.downloadIdentifier,
                request: URLRequest(url: session.url),
                essential: isEssential,
                // An essential download must declare the file's exact size, or it fails.
                fileSize: session.fileSize,
                applicationGroupIdentifier: settings.appGroupIdentifier,
                // The sessions the app needs first go first, whatever order the set is scheduled in.
                priority: isEssential ? .max : .default)
            Logger.ext.info("Enqueued download: \(download.identifier)\(isEssential ? " (essential)" : "").")
            downloadsToSchedule.insert(download)
        }
        Logger.ext.info("""
            Asked for downloads (\(request)) with \(extensionInfo); returning \(downloadsToSchedule.count) \
            of \(manifest.sessions.count) sessions.
            """)
        return downloadsToSchedule
    }
}
