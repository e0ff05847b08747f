/*
Abstract:
The download manager's callbacks: progress for the display, and finished videos moved into place.
*/

import BackgroundAssets
import Foundation
import OSLog
import SessionKit

// MARK: BADownloadManagerDelegate

extension SessionManager: BADownloadManagerDelegate {
    func downloadDidBegin(_ download: BADownload) {
        guard let session = trackedSession(for: download) else { return }
        update(session.id, reporting: .downloadBegan(session.id)) { $0.phase = .downloading }
    }

    func downloadDidPause(_ download: BADownload) {
        guard let session = trackedSession(for: download) else { return }
        update(session.id, reporting: .downloadPaused(session.id)) { transfer in
            transfer.phase = .paused
            transfer.rate.reset()
        }
    }

    func download(
        _ download: BADownload, didWriteBytes bytesWritten: Int64, totalBytesWritten: Int64,
        totalBytesExpectedToWrite totalExpectedBytes: Int64
    ) {
        guard let session = trackedSession(for: download) else { return }
        let expected = totalExpectedBytes > 0 ? totalExpectedBytes : Int64(session.fileSize)
        let fraction = expected > 0 ? min(1, Double(totalBytesWritten) / Double(expected)) : 0
        let now = ContinuousClock.now
        update(session.id, reporting: .downloadProgressed(session.id, fractionCompleted: fraction)) { transfer in
            transfer.phase = .downloading
            transfer.bytesWritten = totalBytesWritten
            transfer.rate.record(totalBytes: totalBytesWritten, at: now)
        }
    }

    func download(_ download: BADownload, finishedWithFileURL fileURL: URL) {
        guard let session = trackedSession(for: download) else { return }
        // The system deletes the file when this method returns, so it is verified and moved into
        // place now, on this thread. The move checks the size and SHA-256 against the manifest
        // first, so a corrupt download never replaces a good video.
        do {
            try LocalSession(session: session, settings: settings).moveDownloadedFile(from: fileURL)
        } catch {
            Logger.app.error(
                "Failed to move the download of session \(session.id) into place: \(error.localizedDescription)")
            markFailed(session, reason: error.localizedDescription)
            return
        }
        Logger.app.info("Downloaded session \(session.id).")
        update(session.id, reporting: .downloaded(session.id)) { transfer in
            transfer.phase = .downloaded
            transfer.bytesWritten = Int64(session.fileSize)
            transfer.rate.reset()
        }
    }

    func download(_ download: BADownload, failedWithError error: any Error) {
        // If the `BAManifestURL` fails to download, the delegate is told about it too. The
        // manifest's download is not a `BAURLDownload` but a private subclass, so its type tells it apart.
        guard type(of: download) == BAURLDownload.self else {
            Logger.app.notice(
                "Download of unsupported type failed: \(download.identifier). \(error.localizedDescription)")
            return
        }
        guard let session = trackedSession(for: download) else { return }
        // The session stays remote: the next launch starts its download again.
        Logger.app.error("The download of session \(session.id) failed: \(error.localizedDescription)")
        markFailed(session, reason: error.localizedDescription)
    }

    func download(_ download: BADownload, didReceive challenge: URLAuthenticationChallenge) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)
    {
        // The asset server protects the sessions under /protected/; the credentials for them are
        // kept in the app group, where the extension finds them too.
        guard challenge.previousFailureCount == 0, let session = trackedSession(for: download) else {
            return (.performDefaultHandling, nil)
        }
        let credentials: ServerCredentials?
        do {
            credentials = try settings.loadCredentials()
        } catch {
            Logger.app.error("Failed to load the server credentials: \(error.localizedDescription)")
            return (.performDefaultHandling, nil)
        }
        guard let credentials,
              credentials.answer(challengeFrom: challenge.protectionSpace.host, downloading: session.url)
        else { return (.performDefaultHandling, nil) }
        let credential = URLCredential(user: credentials.user, password: credentials.password, persistence: .forSession)
        return (.useCredential, credential)
    }

    // MARK: - Matching downloads to sessions

    /// The manifest's session for a download of a session video, or `nil` for anything else.
    private func trackedSession(for download: BADownload) -> Session? {
        // Ignore the `BAManifestURL` download: it's not a `BAURLDownload`, but a private subclass.
        guard type(of: download) == BAURLDownload.self else { return nil }
        guard let session = session(for: download) else {
            Logger.app.debug("Unknown download: \(download.identifier).")
            return nil
        }
        return session
    }
}
