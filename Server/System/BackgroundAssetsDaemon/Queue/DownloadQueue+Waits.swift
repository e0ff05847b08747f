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
        let message = noProgressMessage(row, run: run, waited: waited) + "; the last attempt: \(error.message)"
        return TransferError(error.context, error.kind, message, retryAfter: error.retryAfter).wireFailure
    }

    /// The same failure when the wait ran out between two attempts: the last attempt's error, with its domain and code.
    func noProgressFailure(_ row: DownloadRow, lastAttempt: WireFailure, run: FailureRun, waited: Double) -> WireFailure {
        WireFailure(domain: lastAttempt.domain, code: lastAttempt.code,
                    message: noProgressMessage(row, run: run, waited: waited) + "; the last attempt: \(lastAttempt.message)")
    }

    private func noProgressMessage(_ row: DownloadRow, run: FailureRun, waited: Double) -> String {
        let kind = row.descriptor.isEssential ? "essential download" : "foreground download"
        var message = "the \(kind) made no progress for \(String(format: "%.1f", waited)) s over \(run.attempts) attempt(s)"
        if run.restarts > 0, let reason = run.restartReason {
            let which = run.restarts == run.attempts ? "each of the last \(run.attempts)" : "\(run.restarts) of the last \(run.attempts)"
            message += "; it started over from zero on \(which) attempts (\(reason))"
        }
        return message
    }

    /// Starts the clock of a download someone waits for, unless it runs already.
    /// - Parameters:
    ///   - row: The download; nothing happens for one nobody waits for (a background download).
    ///   - date: When the wait starts: its promotion, or its first failure in this service (so every
    ///     download gets at least one retry, however long its first attempt took).
    ///   - restart: Start again from `date` even if the clock runs (a promotion: a person starts waiting now).
    func startWaitClock(of row: DownloadRow, at date: Date, restart: Bool = false) {
        guard let wait = boundedWait(of: row), restart || waitingSince[row.id] == nil else { return }
        waitingSince[row.id] = date
        waitChecks[row.id] = date.addingTimeInterval(wait)
        scheduleWaitCheck()
    }

    /// Sets the timer for the earliest moment a waited-for download could run out of its wait.
    ///
    /// A wait is checked when an attempt fails, but an attempt can go on without progress (a silent
    /// server, until `stallTimeout`) or a retry can be due after the wait ends: the timer fails the
    /// download at its deadline instead. Progress only moves a deadline later, so each check is set
    /// for the deadline as last known, and the real one is read from the store when it comes.
    func scheduleWaitCheck() {
        waitCheck?.cancel()
        guard let earliest = waitChecks.values.min() else { return }
        let delay = max(0, min(earliest.timeIntervalSince(time.now), 3600))
        waitCheck = activities.after(.seconds(fractional: delay + 0.001), "bounded-wait check") { [weak self] in
            await self?.enforceWaits()
        }
    }

    /// Fails every waited-for download whose wait ran out without progress, in the middle of an
    /// attempt or between two.
    func enforceWaits() {
        let now = time.now
        for (id, since) in waitingSince where waitChecks[id].map({ $0 <= now }) == true {
            guard let row = try? store.download(id: id), let wait = boundedWait(of: row),
                row.state == .downloading || row.state == .waiting, awaitingChallenge[id] == nil
            else {
                waitChecks[id] = nil
                continue
            }
            let lastProgress = row.lastProgressAt ?? row.createdAt
            let deadline = max(lastProgress, since).addingTimeInterval(wait)
            guard deadline <= now else {
                waitChecks[id] = deadline
                continue
            }
            let waited = now.timeIntervalSince(max(lastProgress, since))
            if let interrupted = running.removeValue(forKey: id) {
                // In the middle of an attempt that brings nothing (a silent server, before the stall timeout).
                interrupted.control.cancel()
                let run = noteFailure(of: row, restartedBecause: nil, lastProgress: lastProgress)
                var detail = "\(row.descriptor.url) sent nothing more before the wait ran out"
                if let previous = row.lastError { detail += " (the attempt before it: \(previous.message))" }
                let cause = TransferError(.transport, .stalled, detail)
                fail(row, noProgressFailure(row, cause, run: run, waited: waited))
            } else {
                // Waiting for a retry that would come after the wait: the last attempt's error is the cause.
                let run = failureRuns[id] ?? FailureRun(lastProgress: lastProgress)
                let last = row.lastError ?? TransferError(.transport, .stalled, "it was waiting to retry").wireFailure
                fail(row, noProgressFailure(row, lastAttempt: last, run: run, waited: waited))
            }
        }
        rebalanceBandwidth()
        scheduleWaitCheck()
        pump()
    }

    /// Forgets the wait and failure bookkeeping of a download that ended or was removed.
    func forgetFailures(of id: Int64) {
        waitingSince[id] = nil
        waitChecks[id] = nil
        failureRuns[id] = nil
    }
}

extension Duration {
    /// The duration in seconds, with its fractional part.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
