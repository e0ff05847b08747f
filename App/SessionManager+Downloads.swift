/*
Abstract:
Starts the downloads of sessions that are not on the device, promoting those already in flight.
*/

import BackgroundAssets
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit
import SystemLogging

extension SessionManager {
    /// Downloads, in the foreground, every session of the manifest that is not on the device.
    ///
    /// A session the extension is already downloading in the background is promoted to the
    /// foreground, continuing from the same byte, rather than downloaded twice.
    func startDownloads() {
        // Exclusive control keeps the extension from scheduling, or moving a finished file into
        // place, between the moment the app lists the current downloads and the moment it acts on them.
        BADownloadManager.shared.withExclusiveControl { [self] acquired, error in
            // Listed with control held: the extension may have moved videos into place while the app waited.
            let remoteSessions = state.withLock { $0.manifest }?.remoteSessions(settings: settings) ?? []
            guard acquired else {
                let reason = "could not acquire exclusive control: \(error?.localizedDescription ?? "no reason given")"
                Logger.app.error("Failed to start downloads: \(reason)")
                for local in remoteSessions { markFailed(local.session, reason: reason) }
                return
            }

            let currentDownloads: [BADownload]
            do {
                currentDownloads = try BADownloadManager.shared.fetchCurrentDownloads()
            } catch {
                Logger.app.error("Failed to fetch the current downloads: \(error.localizedDescription)")
                for local in remoteSessions { markFailed(local.session, reason: error.localizedDescription) }
                return
            }

            for local in remoteSessions {
                startDownload(of: local, currentDownloads: currentDownloads)
            }
        }
    }

    /// Starts one session's download in the foreground; call it with exclusive control.
    private func startDownload(of local: LocalSession, currentDownloads: [BADownload]) {
        let session = local.session

        // If this session is already being downloaded, promote it to the foreground.
        let existingDownload = currentDownloads.first { $0.identifier == session.downloadIdentifier }
        let download = existingDownload ?? BAURLDownload(
            identifier: session.downloadIdentifier,
            request: URLRequest(url: session.url),
            essential: false,
            fileSize: session.fileSize,
            applicationGroupIdentifier: settings.appGroupIdentifier,
            priority: .default)

        guard download.state != .failed else {
            Logger.app.notice(
                "The download of session \(session.id) is in the failed state; the next launch tries again.")
            markFailed(session, reason: "its download is in the failed state; the next launch tries again")
            return
        }

        // Recorded before the call: the download's first callbacks can arrive before the call returns.
        // A download already in flight may have reported progress to this delegate; it keeps its phase.
        update(session.id, reporting: .downloadStarted(session.id, promoted: existingDownload != nil)) { transfer in
            if transfer.phase == .remote || transfer.phase.isFailed { transfer.phase = .waiting }
        }
        do {
            try BADownloadManager.shared.startForegroundDownload(download)
        } catch {
            Logger.app.error("Failed to start the download of session \(session.id): \(error.localizedDescription)")
            markFailed(session, reason: error.localizedDescription)
        }
    }

    /// Records that a session's download failed; it stays remote, and the next launch tries again.
    func markFailed(_ session: Session, reason: String) {
        update(session.id, reporting: .downloadFailed(session.id, reason: reason)) { transfer in
            transfer.phase = .failed(reason)
            transfer.rate.reset()
        }
    }
}
