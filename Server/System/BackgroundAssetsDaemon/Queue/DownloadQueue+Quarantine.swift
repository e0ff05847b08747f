/*
Abstract:
Downloads that crashed the service again and again are set aside, so one response or archive cannot keep the device down.
*/

import BackgroundAssetsIPC
import Foundation

extension DownloadQueue {
    /// How many crashes of the service while it worked on one download set it aside: one could be
    /// bad luck, three in a row are the download.
    static let crashesBeforeQuarantine = 3

    /// Counts the previous service's crash against the download its crashing thread worked on, and
    /// fails it once it reached ``crashesBeforeQuarantine``, with the reason, instead of resuming it
    /// (or unpacking it again) into the same crash.
    ///
    /// A crash on a thread that worked on no download blames none: counting it against every
    /// download in transfer would quarantine innocent downloads for a fault elsewhere.
    func quarantine(after crash: CrashReport) throws {
        let thread = crash.threadName ?? "unknown"
        guard let blamed = crash.blamed, let counted = try store.recordCrash(blaming: blamed.rowID) else {
            logger.error("The previous backgroundassetsd crashed (\(crash.signalName), thread \(thread)) on a thread that worked on no download, so no download counted it. The crash's backtrace is in \(staging.paths.logFile.path).")
            return
        }
        let (row, crashes) = counted
        logger.error("The previous backgroundassetsd crashed (\(crash.signalName), thread \(thread)) while \(blamed.phase.activity) the download \(row.bundleIdentifier)/\(row.descriptor.identifier) (crash \(crashes) of \(Self.crashesBeforeQuarantine) before it is set aside). The crash's backtrace is in \(staging.paths.logFile.path).")
        guard crashes >= Self.crashesBeforeQuarantine else { return }
        // downloadFailedToStart: the service will not start it again by itself.
        let failure = WireFailure.backgroundAssets(code: BAError.Code.downloadFailedToStart.rawValue, message:
            "The download \(row.descriptor.identifier) was quarantined: the service crashed \(crashes) times "
            + "(last with \(crash.signalName)) while \(blamed.phase.activity) \(row.descriptor.url), so it set the download "
            + "aside instead of resuming it into the same crash. The backtraces are in \(staging.paths.logFile.path); "
            + "schedule the download again once the cause is fixed.")
        fail(row, failure)
    }

    /// Records the crash, and pauses every transfer when it is one of too many too close together
    /// (``CrashBrake``).
    func applyBrake(after crash: CrashReport) {
        let file = staging.paths.crashHistoryFile
        var brake = CrashBrake.load(from: file)
        let now = wallClock.now
        brake.record(at: now)
        if let problem = brake.save(to: file) {
            logger.error("The service could not record its crash in \(file.path) (\(problem)); repeated crashes will not pause its work. Check that system/ is writable.")
        }
        guard let pause = brake.pause(at: now, lastCrash: crash) else { return }
        crashPause.withLock { $0 = pause }
        logger.error(pause.reason)
    }

    /// Why transfers are paused now, for `status` and every client's hello; `nil` while they run.
    public nonisolated var pausedWorkReason: String? {
        let now = activities.wallClock.now
        return crashPause.withLock { pause in pause.flatMap { now < $0.until ? $0.reason : nil } }
    }

    /// Whether the brake holds every transfer back now; when it does, a timer pumps again as it ends.
    func isPausedAfterCrashes() -> Bool {
        guard let pause = crashPause.withLock({ $0 }) else { return false }
        guard pause.until > wallClock.now else {
            crashPause.withLock { $0 = nil }
            logger.notice("The pause after repeated crashes has passed; transfers start again.")
            return false
        }
        scheduleWakeUp(at: pause.until, "end of the pause after repeated crashes")
        return true
    }
}
