/*
Abstract:
What the extension does when a download fails: an essential one is rescheduled in the background.
*/

import BackgroundAssets
import Foundation
import OSLog

extension BackgroundDownloadHandler {
    func backgroundDownload(_ failedDownload: BADownload, failedWithError error: any Error) {
        // If the `BAManifestURL` fails to download, the extension is told about it too. The
        // manifest's download is not a `BAURLDownload` but a private subclass, so the download's
        // type tells it apart.
        guard type(of: failedDownload) == BAURLDownload.self else {
            Logger.ext.error(
                "Failed to download the manifest, so no sessions were scheduled: \(error.localizedDescription)")
            return
        }

        // An essential download that failed during the install can be scheduled again as an
        // ordinary background download, so the session still arrives, just later. Essential
        // downloads can't be scheduled from here, so it's rescheduled without the flag.
        if failedDownload.isEssential {
            Logger.ext.notice(
                "Rescheduling failed download: \(failedDownload.identifier). \(error.localizedDescription)")
            do {
                let optionalDownload = failedDownload.removingEssential()
                try BADownloadManager.shared.scheduleDownload(optionalDownload)
            } catch {
                Logger.ext.error(
                    "Failed to reschedule download \(failedDownload.identifier). \(error.localizedDescription)")
            }
        } else {
            // The session stays remote; the app starts its download again when it launches.
            Logger.ext.error("Download failed: \(failedDownload.identifier). \(error.localizedDescription)")
        }
    }
}
