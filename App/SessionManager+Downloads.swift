/*
Abstract:
Starts the downloads of sessions that are not on the device, promoting those already in flight.
*/

import BackgroundAssets
import Foundation
import OSLog
import SessionKit

extension SessionManager {
    /// Downloads, in the foreground, every session of the manifest that is not on the device.
    ///
    /// A session the extension is already downloading in the background is promoted to the
    /// foreground, continuing from the same byte, rather than downloaded twice.
    /// - Parameter startingOverOnRestart: Whether to start over once when the system's download
    ///   service restarts while the app takes or holds exclusive control.
    func startDownloads(startingOverOnRestart: Bool = true) {
        // Exclusive control keeps the extension from scheduling, or moving a finished file into
        // place, between the moment the app lists the current downloads and the moment it acts on them.
        BADownloadManager.shared.withExclusiveControl { [self] acquired, error in
            guard acquired else {
                // The service restarted before it answered: ask again, once.
                if let error = error as? BAError, error.code == .callerConnectionInvalid, startingOverOnRestart {
                    Logger.app.notice("Lost the download service while taking exclusive control; starting over.")
                    return startDownloads(startingOverOnRestart: false)
                }
                let reason = "could not acquire exclusive control: \(error?.localizedDescription ?? "no reason given")"
                Logger.app.error("Failed to start downloads: \(reason)")
                for local in remoteSessionsNow() { markFailed(local.session, reason: reason) }
                return
            }

            // The current downloads first, then the sessions missing from disk: a download that
            // finishes in between is then either listed (its file on its way) or already on disk.
            let currentDownloads: [BADownload]
            do {
                currentDownloads = try BADownloadManager.shared.fetchCurrentDownloads()
            } catch let error as BAError where error.code == .callerConnectionInvalid && startingOverOnRestart {
                // The service restarted, and exclusive control ended with the connection: take it again.
                Logger.app.notice("Lost the download service while listing downloads; starting over.")
                return startDownloads(startingOverOnRestart: false)
            } catch {
                Logger.app.error("Failed to fetch the current downloads: \(error.localizedDescription)")
                for local in remoteSessionsNow() { markFailed(local.session, reason: error.localizedDescription) }
                return
            }
            // Listed with control held: the extension may have moved videos into place while the app waited.
            let remoteSessions = remoteSessionsNow()

            // Looked up by identifier: with thousands of sessions, searching the list for each one
            // would take longer than the downloads.
            let downloadsByIdentifier = Dictionary(
                currentDownloads.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
            // Sessions nobody downloads yet first: those the extension has in flight keep going
            // meanwhile, and by the time the list comes to them most are on the device.
            let isInFlight = { (local: LocalSession) in downloadsByIdentifier[local.session.downloadIdentifier] != nil }
            for local in remoteSessions.filter({ !isInFlight($0) }) + remoteSessions.filter(isInFlight) {
                startDownload(of: local, existingDownload: downloadsByIdentifier[local.session.downloadIdentifier])
            }
        }
    }

    /// Schedules background downloads of the sessions not on the device, as the extension does.
    ///
    /// The background refresh uses it: the system fits background downloads around the device's use,
    /// and a finished one reaches the app's delegate or, when the app isn't running, the extension.
    func scheduleBackgroundDownloads() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // Under exclusive control, the extension can't schedule the same sessions meanwhile.
            BADownloadManager.shared.withExclusiveControl { [self] acquired, error in
                defer { continuation.resume() }
                guard acquired else {
                    Logger.app.error("Failed to schedule downloads: \(error?.localizedDescription ?? "no exclusive control")")
                    return
                }
                let current = Set(((try? BADownloadManager.shared.fetchCurrentDownloads()) ?? []).map(\.identifier))
                for local in remoteSessionsNow() where !current.contains(local.session.downloadIdentifier) {
                    let session = local.session
                    let download = BAURLDownload(
                        identifier: session.downloadIdentifier, request: URLRequest(url: session.url), essential: false,
                        fileSize: session.fileSize, applicationGroupIdentifier: settings.appGroupIdentifier,
                        priority: .default)
                    do {
                        try BADownloadManager.shared.scheduleDownload(download)
                        Logger.app.info("Scheduled the background download of session \(session.id).")
                    } catch {
                        Logger.app.error("Failed to schedule session \(session.id): \(error.localizedDescription)")
                    }
                }
            }
        }
    }

    /// The sessions of the manifest that are not on the device, as the disk says now.
    private func remoteSessionsNow() -> [LocalSession] {
        state.withLock { $0.manifest }?.remoteSessions(settings: settings) ?? []
    }

    /// Starts one session's download in the foreground; call it with exclusive control.
    /// - Parameters:
    ///   - local: The session, not on the device when the app listed it.
    ///   - existingDownload: The session's download among the current downloads, if it is in flight.
    private func startDownload(of local: LocalSession, existingDownload: BADownload?) {
        let session = local.session

        // Downloads keep finishing while the app goes through the list: a video this app's delegate
        // has moved into place since the list was made needs nothing more.
        guard local.state != .downloaded else { return }

        // If this session is already being downloaded, promote it to the foreground.
        let download = existingDownload ?? BAURLDownload(
            identifier: session.downloadIdentifier,
            request: URLRequest(url: session.url),
            essential: false,
            fileSize: session.fileSize,
            applicationGroupIdentifier: settings.appGroupIdentifier,
            priority: .default)

        // Finished a moment ago: its file is on its way to this app's delegate, which moves it into place.
        guard download.state != .finished else {
            Logger.app.info("Session \(session.id) finished downloading; its file is on its way into place.")
            watchForHandOver(of: session)
            return
        }

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

    /// Watches the disk for a session whose download finished but whose file this app's delegate,
    /// or the extension, is still moving into place; the extension's move sends the app no callback.
    private func watchForHandOver(of session: Session) {
        state.withLock { $0.transfers[session.id, default: Transfer()].phase = .waiting }
        let local = LocalSession(session: session, settings: settings)
        Task {
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                if local.state == .downloaded {
                    update(session.id, reporting: .downloaded(session.id)) { transfer in
                        transfer.phase = .downloaded
                        transfer.bytesWritten = Int64(session.fileSize)
                        transfer.rate.reset()
                    }
                    return
                }
                // A look is one stat(2); looking often shows the video as soon as it is in place.
                try? await Task.sleep(for: .milliseconds(20))
            }
            markFailed(session, reason: "its finished download was not moved into place within a minute; the next launch tries again")
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
