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
        let check = min(earliest, wallClock.now.addingTimeInterval(3600)).addingTimeInterval(0.001)
        waitCheck = activities.at(check, "bounded-wait check") { [weak self] in
            await self?.enforceWaits()
        }
    }

    /// Fails every waited-for download whose wait ran out without progress, in the middle of an
    /// attempt or between two.
    func enforceWaits() {
        let now = wallClock.now
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
        if let probe = connectivity.forget(id) { startProbing(probe) }
    }

    /// Records that a download failed to connect: whether it probes its origin from now on or parks
    /// behind the download that does.
    ///
    /// Only a background download parks: an essential download (an install waits) and a foreground
    /// one (a person waits) keep their own retries, so a held app's queue or a parked row can never
    /// stand between them and the origin.
    func connectionFailed(_ row: DownloadRow, _ failure: WireFailure) -> ConnectivityWaits.Decision {
        guard !row.isForeground, !row.descriptor.isEssential,
            let origin = ConnectivityWaits.origin(of: row.descriptor.url)
        else { return .probe }
        let (decision, newProbe) = connectivity.connectionFailed(id: row.id, origin: origin, error: failure)
        if let newProbe { startProbing(newProbe) }
        return decision
    }

    /// Parks the due background downloads whose origin is known to be unreachable, without an attempt.
    /// - Returns: Whether any was parked, so the caller looks for the due downloads behind them.
    func parkBehindUnreachableOrigins(_ due: [DownloadStore.DueDownload]) -> Bool {
        guard !connectivity.origins.isEmpty else { return false }
        var parkedAny = false
        for download in due where !download.isForeground && !download.isEssential && running[download.id] == nil {
            guard let origin = ConnectivityWaits.origin(of: download.url),
                let reason = connectivity.park(id: download.id, origin: origin)
            else { continue }
            do {
                try store.park(id: download.id, reason: reason, at: wallClock.now)
                parkedAny = true
            } catch {
                // Left due: it is tried instead, and parks when it fails to connect.
                connectivity.forget(download.id)
                logger.error("Download \(download.id) could not be parked behind \(origin): \(error). It is tried instead.")
            }
        }
        return parkedAny
    }

    /// Why a new download starts parked: its origin is waited for, and it is a background download
    /// that would park on its first attempt anyway. `nil` when it is due at once.
    func reasonToPark(_ download: NewDownload) -> WireFailure? {
        guard !connectivity.origins.isEmpty, !download.isForeground, !download.descriptor.isEssential,
            let origin = ConnectivityWaits.origin(of: download.descriptor.url)
        else { return nil }
        return connectivity.origins[origin]?.lastError
    }

    /// An attempt reached the download's origin: the downloads parked behind it are due again.
    func originAnswered(_ row: DownloadRow) {
        // Nothing waits for any origin (almost always): no URL to take apart at every transfer's end.
        guard !connectivity.origins.isEmpty, let origin = ConnectivityWaits.origin(of: row.descriptor.url) else { return }
        let parked = connectivity.reached(origin)
        guard !parked.isEmpty else { return }
        do {
            let due = try store.unpark(parked.sorted(), at: wallClock.now)
            logger.info("\(origin) answered: \(due) download(s) parked behind it are due again.")
        } catch {
            // They stay parked until the next start of the service, which makes every parked download due.
            logger.error("The downloads parked behind \(origin) could not be made due: \(error). A restart retries them.")
        }
    }

    /// Hands each origin whose probe is gone or ended (its rows were removed behind the queue's
    /// back, as an uninstall does) to one of its parked downloads, so they are not parked for ever.
    func replaceRemovedProbes() {
        var replaced = false
        for known in connectivity.origins.values {
            let state: DownloadDescriptor.State?
            do { state = try store.download(id: known.probe)?.state } catch { continue }
            guard state != .waiting, state != .downloading else { continue }
            forgetFailures(of: known.probe)
            replaced = true
        }
        if replaced { pump() }
    }

    /// Makes a parked download its origin's probe when the probe before it ended or was removed.
    ///
    /// It is due at once: the probe before it may have failed because it was too old
    /// (`maxDownloadAge`), and downloads parked together are often as old, so each that is too old
    /// fails on its own attempt instead of one per probe interval.
    private func startProbing(_ id: Int64) {
        let now = wallClock.now
        do {
            try store.update(id: id, at: now, waitsForDisk: false) { row in
                guard row.state == .waiting, row.nextAttemptAt >= DownloadStore.parkedUntilReachable else { return }
                row.nextAttemptAt = now
            }
        } catch {
            logger.error("Download \(id) could not take over probing its origin: \(error). Its origin is forgotten.")
            if let origin = connectivity.origins.first(where: { $0.value.probe == id })?.key {
                let parked = connectivity.reached(origin)
                _ = try? store.unpark(parked.sorted() + [id], at: now)
            }
        }
    }
}

extension Result where Success == TransferResult, Failure == TransferError {
    /// Whether the attempt shows its origin answers: it succeeded, or failed after connecting.
    var reachedOrigin: Bool {
        switch self {
        case .success: true
        case let .failure(error): !error.isConnectivityFailure && error.kind != .cancelled
        }
    }
}

extension Duration {
    /// The duration in seconds, with its fractional part.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
