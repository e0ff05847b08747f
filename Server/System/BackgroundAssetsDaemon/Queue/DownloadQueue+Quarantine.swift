/*
Abstract:
Downloads that crashed the service again and again are set aside, so one response cannot keep the device down.
*/

import BackgroundAssetsIPC
import Foundation

extension DownloadQueue {
    /// How many crashes of the service during one download's transfer set it aside: one could be
    /// bad luck, three in a row are the download.
    static let crashesBeforeQuarantine = 3

    /// Counts the previous service's crash against the downloads it was transferring, and fails
    /// those that reached ``crashesBeforeQuarantine`` with the reason, instead of resuming them
    /// into the same crash.
    ///
    /// The crashing thread names its download when it was a transfer's; otherwise every download
    /// in transfer at the time shares the blame, since the crash may have come from handling one
    /// of their responses.
    func quarantine(after crash: CrashReport) throws {
        let blamed = try store.recordCrash(blaming: crash.rowID)
        logger.error("The previous backgroundassetsd crashed (\(crash.signalName), thread \(crash.threadName ?? "unknown")); \(blamed.count) download(s) in transfer counted it. The crash's backtrace is in \(staging.paths.logFile.path).")
        for (row, crashes) in blamed where crashes >= Self.crashesBeforeQuarantine {
            // downloadFailedToStart: the service will not start it again by itself.
            let failure = WireFailure.backgroundAssets(code: BAError.Code.downloadFailedToStart.rawValue, message:
                "The download \(row.descriptor.identifier) was quarantined: the service crashed \(crashes) times "
                + "(last with \(crash.signalName)) while transferring \(row.descriptor.url), so it set the download "
                + "aside instead of resuming it into the same crash. The backtraces are in \(staging.paths.logFile.path); "
                + "schedule the download again once the cause is fixed.")
            fail(row, failure)
        }
    }
}
