/*
Abstract:
What the extension does when a download finishes: verify the video and move it into the app group.
*/

import BackgroundAssets
import Foundation
import OSLog
import SessionKit

extension BackgroundDownloadHandler {
    func backgroundDownload(_ finishedDownload: BADownload, finishedWithFileURL fileURL: URL) {
        let settings = SharedSettings.shared

        // The system deletes the downloaded file when this method returns, and exclusive control is
        // granted on another thread. So the file is first moved somewhere the extension owns: a
        // temporary folder in the same app group container, which makes the move a rename.
        let ephemeralFileLocation = settings.temporaryDirectory.appending(path: UUID().uuidString)
        do {
            try FileManager.default.createDirectory(at: settings.temporaryDirectory, withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: fileURL, to: ephemeralFileLocation)
        } catch {
            Logger.ext.error("""
                Download \(finishedDownload.identifier) finished, but moving the file to a temporary location \
                failed. \(error.localizedDescription)
                """)
            return
        }
        // Acquire exclusive control so the app doesn't replace the manifest, or move the same
        // session into place, while the extension reads the manifest and moves the file. This method
        // returns at once; the system keeps the extension running until the handler has run.
        BADownloadManager.shared.withExclusiveControl { controlAcquired, error in
            // Always remove the ephemeral file: it's in a caches folder anyway, but removing it at
            // once is better. After a successful move into place there is nothing left to remove.
            defer { try? FileManager.default.removeItem(at: ephemeralFileLocation) }
            guard controlAcquired else {
                Logger.ext.error("""
                    Failed to acquire exclusive control for download \(finishedDownload.identifier). \
                    \(error?.localizedDescription ?? "No reason was given.")
                    """)
                return
            }
            moveIntoPlace(ephemeralFileLocation, from: finishedDownload, settings: settings)
        }
    }

    /// Verifies a finished download against the latest manifest and moves it to its session's file.
    /// - Parameters:
    ///   - file: The downloaded file, in the app group container.
    ///   - download: The download that produced it.
    ///   - settings: The app group's locations.
    private func moveIntoPlace(_ file: URL, from download: BADownload, settings: SharedSettings) {
        // Load the most recently saved manifest, whether the app or the extension saved it.
        let manifest: Manifest
        do {
            guard let localManifest = try settings.loadLocalManifest() else {
                Logger.ext.error("Download \(download.identifier) finished, but there is no manifest to match it with.")
                return
            }
            manifest = localManifest
        } catch {
            Logger.ext.error("""
                Download \(download.identifier) finished, but the latest manifest failed to load. \
                \(error.localizedDescription)
                """)
            return
        }

        // Find the session the download fetched, by its download identifier.
        guard let session = manifest.session(forDownloadIdentifier: download.identifier) else {
            Logger.ext.error("Download finished that the manifest doesn't reference: \(download.identifier).")
            return
        }

        // Check the file's size and SHA-256 against the manifest, then rename it into place. The
        // digest is computed by streaming the file, so even a large video keeps the extension far
        // below its memory limit.
        let localSession = LocalSession(session: session, settings: settings)
        do {
            try localSession.moveDownloadedFile(from: file)
        } catch {
            Logger.ext.error("""
                Download \(download.identifier) finished, but it could not be moved into place. \
                \(error.localizedDescription)
                """)
            return
        }

        // Confirm the session now reads as downloaded, as the app will see it.
        guard localSession.state == .downloaded else {
            Logger.ext.error(
                "Download \(download.identifier) finished, but session \(session.id) still reads as remote.")
            return
        }
        Logger.ext.info("Download finished: \(download.identifier).")
    }
}
