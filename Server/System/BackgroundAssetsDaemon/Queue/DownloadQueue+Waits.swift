/*
Abstract:
Bounded waits: a foreground or essential download that makes no progress fails, naming why.
*/

import BackgroundAssetsIPC
import Foundation

/// The attempts of one download since it last made progress.
struct FailureRun: Sendable, Equatable {
    /// The download's last progress when the run began; a later one starts a new run.
    var lastProgress: Date
    /// Failed attempts in the run.
    var attempts = 0
    /// Attempts in the run that threw the bytes on disk away and started from zero.
    var restarts = 0
    /// Why the latest restart from zero happened.
    var restartReason: String?
    /// Whether the latest attempt ended because the server was too slow (`lowSpeedLimit`).
    var endedTooSlow = false
}

extension DownloadQueue {
    /// How long a download may go without progress before it fails, when someone waits for it:
    /// `essentialWait` for an essential download (an install waits), `foregroundWait` for a
    /// foreground one (a person waits), none for a background one (`maxDownloadAge` applies).
    func boundedWait(of row: DownloadRow) -> Double? {
        if row.descriptor.isEssential { return configuration.essentialWait }
        if row.isForeground, configuration.foregroundWait > 0 { return configuration.foregroundWait }
        return nil
    }

    /// Counts a failed attempt in the download's run since its last progress.
    func noteFailure(of row: DownloadRow, restartedBecause restart: String?, lastProgress: Date, tooSlow: Bool = false) -> FailureRun {
        var run = failureRuns[row.id] ?? FailureRun(lastProgress: lastProgress)
        if run.lastProgress != lastProgress { run = FailureRun(lastProgress: lastProgress) }
        run.attempts += 1
        run.endedTooSlow = tooSlow
        if let restart {
            run.restarts += 1
            run.restartReason = restart
        }
        failureRuns[row.id] = run
        return run
    }

    /// The failure of a download whose wait ran out: the last cause, the URL, and the pattern.
    func noProgressFailure(_ row: DownloadRow, _ error: TransferError, run: FailureRun, waited: Double) -> WireFailure {
        let kind = row.descriptor.isEssential ? "essential download" : "foreground download"
        var message = "the \(kind) made no progress for \(String(format: "%.1f", waited)) s over \(run.attempts) attempt(s)"
        if run.restarts > 0, let reason = run.restartReason {
            let which = run.restarts == run.attempts ? "each of the last \(run.attempts)" : "\(run.restarts) of the last \(run.attempts)"
            message += "; it started over from zero on \(which) attempts (\(reason))"
        }
        message += "; the last attempt: \(error.message)"
        return TransferError(error.context, error.kind, message, retryAfter: error.retryAfter).wireFailure
    }

    /// Forgets the wait and failure bookkeeping of a download that ended or was removed.
    func forgetFailures(of id: Int64) {
        waitingSince[id] = nil
        failureRuns[id] = nil
    }
}

extension Duration {
    /// The duration in seconds, with its fractional part.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
