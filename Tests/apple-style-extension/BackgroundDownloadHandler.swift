/*
Abstract:
The downloader extension: returns a download per missing session, and moves finished ones into place.
*/

// Written from Apple's documentation of Background Assets and the WWDC23 session; compiled unchanged
// in Swift 6 and Swift 5 language modes. Edits from Apple's platforms: none. It imports
// ExtensionFoundation as Apple's Background Download template does, whose `AppExtension` the
// protocol refines; `BADownloaderExtension` supplies `main()`, so `@main` works the same.
import BackgroundAssets
import ExtensionFoundation
import OSLog

@main
struct BackgroundDownloadHandler: BADownloaderExtension {
    private let logger = Logger(subsystem: "com.example.apple-style", category: "extension")

    func downloads(for request: BAContentRequest, manifestURL: URL, extensionInfo: BAAppExtensionInfo) -> Set<BADownload> {
        let manifest: Manifest
        do {
            // The manifest URL is read-only and deleted when this method returns: keep a copy.
            manifest = try Manifest.load(from: manifestURL)
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
            try FileManager.default.copyItem(at: manifestURL, to: copy)
            try SharedSettings.replaceLocalManifest(with: copy)
        } catch {
            logger.error("Failed to load the manifest: \(error.localizedDescription)")
            return []
        }
        // Essential downloads are allowed only while the app installs or updates.
        let essentialAllowed = request == .install || request == .update
        var downloads: Set<BADownload> = []
        for session in manifest.sessions where !SharedSettings.isDownloaded(session) {
            let essential = essentialAllowed && session.essential
            downloads.insert(BAURLDownload(
                identifier: session.id, request: URLRequest(url: session.url), essential: essential,
                fileSize: session.fileSize, applicationGroupIdentifier: SharedSettings.appGroupIdentifier,
                priority: essential ? .max : .default))
        }
        logger.info("Returning \(downloads.count) of \(manifest.sessions.count) sessions for \(String(describing: request)).")
        return downloads
    }

    func backgroundDownload(_ download: BADownload, finishedWithFileURL fileURL: URL) {
        guard let manifest = try? Manifest.load(from: SharedSettings.localManifestURL),
            let session = manifest.sessions.first(where: { $0.id == download.identifier })
        else {
            logger.error("Finished download \(download.identifier) is not in the manifest.")
            return
        }
        // The file is deleted when this method returns, and exclusive control is granted later on
        // another thread: move it somewhere of the extension's own first, in the same container.
        let ephemeral = SharedSettings.containerURL.appendingPathComponent("Library/Caches/\(UUID().uuidString)")
        do {
            try FileManager.default.moveItem(at: fileURL, to: ephemeral)
        } catch {
            logger.error("Failed to keep \(download.identifier): \(error.localizedDescription)")
            return
        }
        let logger = logger
        // Under exclusive control, so the app does not check or fetch this session while it moves.
        BADownloadManager.shared.withExclusiveControl { acquired, error in
            defer { try? FileManager.default.removeItem(at: ephemeral) }
            guard acquired else {
                logger.error("No exclusive control for \(download.identifier): \(String(describing: error))")
                return
            }
            do {
                _ = try FileManager.default.replaceItemAt(
                    SharedSettings.localURL(for: session), withItemAt: ephemeral, backupItemName: nil, options: [])
            } catch {
                logger.error("Failed to move \(download.identifier): \(error.localizedDescription)")
            }
        }
    }

    func backgroundDownload(_ download: BADownload, failedWithError error: Error) {
        // The manifest download is a subclass; only retry the sessions' own downloads.
        guard type(of: download) == BAURLDownload.self else { return }
        logger.error("Download \(download.identifier) failed: \(error.localizedDescription)")
        // A failed essential download can go on in the background, no longer essential.
        if download.isEssential {
            do {
                try BADownloadManager.shared.scheduleDownload(download.removingEssential())
            } catch {
                logger.error("Failed to reschedule \(download.identifier): \(error.localizedDescription)")
            }
        }
    }

    func backgroundDownload(_ download: BADownload, didReceive challenge: URLAuthenticationChallenge) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)
    {
        (.performDefaultHandling, nil)
    }
}
