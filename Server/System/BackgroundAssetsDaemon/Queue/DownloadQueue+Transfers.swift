/*
Abstract:
Starting a download's transfer on its own thread, and deciding what its outcome means for the download.
*/

import BackgroundAssetsIPC
import Foundation

extension DownloadQueue {
    /// A download the pump picked to run, and the slot it takes.
    struct TransferStart {
        let id: Int64
        let slot: TransferSlots.Slot
    }

    /// Marks downloads as transferring, in one commit, and starts each one's transfer on a thread
    /// of its own, in its slot.
    ///
    /// A store that cannot write (a full disk) leaves a download waiting, or, once it is marked
    /// as transferring, puts it back in line as soon as the store can: never transferring with no
    /// transfer behind it.
    func launch(_ starts: [TransferStart]) {
        // Not waiting for the disk: after a power cut the next boot puts the downloads back in line anyway.
        let marked: [Result<DownloadRow, any Error>]
        do {
            marked = try store.updateEach(starts.map(\.id), at: wallClock.now, waitsForDisk: false) { _, row in
                row.state = .downloading
                row.attempts += 1
            }
        } catch {
            marked = starts.map { _ in .failure(error) }
        }
        for (start, outcome) in zip(starts, marked) {
            switch outcome {
            case let .success(row):
                do {
                    // The row as stored says whether it runs in the foreground.
                    try startTransfer(row, in: row.isForeground ? .foreground : start.slot)
                } catch {
                    keepUnrecorded(.interrupted, of: start.id, because: error)
                }
            case let .failure(error):
                logger.error("Download \(start.id) could not be started: \(reasonText(error)). It will be tried again in a moment.")
                scheduleRecordingRetry()
            }
        }
    }

    private func startTransfer(_ row: DownloadRow, in slot: TransferSlots.Slot) throws {
        let descriptor = row.descriptor
        guard let url = URL(string: descriptor.url) else {
            fail(row, TransferError(.remote, .unsupportedURL, "\(descriptor.url) is not a URL").wireFailure)
            return
        }
        // A pack archive keeps only its header and trailer (its files are written as they
        // arrive), nothing reads it after a restart, and its unpack syncs the files it
        // installs: waiting for the disk to hold the archive would only delay the next transfer.
        let syncsFinishedFile = descriptor.kind != .assetPack
        let request = TransferRequest(
            url: url, partFile: staging.partFile(forRow: row.id),
            expectedLength: descriptor.fileSize > 0 ? Int64(descriptor.fileSize) : nil,
            durableLength: try resumeLength(row), validator: row.resumeValidator, credential: credentials[row.id],
            headers: descriptor.headers,
            checkpointBytes: configuration.checkpointBytes,
            checkpointInterval: .seconds(fractional: configuration.checkpointInterval),
            stallTimeout: .seconds(fractional: configuration.stallTimeout),
            lowSpeedLimit: configuration.lowSpeedLimit, lowSpeedTime: .seconds(fractional: configuration.lowSpeedTime),
            allowedHosts: allowedHosts[row.bundleIdentifier], trust: trust, connections: connections,
            bodyObserver: bodyObserverMaker?(row), syncsFinishedFile: syncsFinishedFile,
            // A group waits for every member still running, so only a transfer that will join it,
            // by syncing its finished file, is one: a pack archive's would hold every group its window long.
            syncGroup: syncsFinishedFile ? .shared : nil)
        let control = TransferControl()
        running[row.id] = RunningTransfer(row: row, control: control, slot: slot)
        // Its share of the background bandwidth before its first byte, not after the thread has run.
        rebalanceBandwidth()
        observer(.began(row))

        let recorder = TransferRecorder(row: row, boot: bootIdentity, store: store, wallClock: wallClock, observer: observer, logger: logger)
        TransferThreads.shared.run { [weak self] in
            // Named after the download while it runs, so a crash on it is counted against this download.
            Thread.nameCurrentThread(CrashReport.threadName(forRow: row.id))
            let transfer = HTTPTransfer(request: request, control: control) { [weak self] event in
                recorder.record(event)
                // Past its last byte, the transfer's slot can go to the next download.
                if event == .bodyEnded { self?.report(.bodyEnded(id: row.id, control: control)) }
            }
            // Counted while it runs: a group forming waits for it until the group's window has passed.
            request.syncGroup?.transferBegan()
            let result = Result { () throws(TransferError) in try transfer.run() }
            request.syncGroup?.transferEnded()
            Thread.nameCurrentThread("transfer")
            let restart = recorder.restartReason
            self?.report(.ended(TransferEnd(id: row.id, control: control, result: result, restartedBecause: restart)))
        }
    }

    /// How much of a download's staging file the next attempt keeps.
    ///
    /// Within the boot that wrote it, the whole file: a crash of the service loses nothing the
    /// kernel accepted, so after `kill -9` nothing is fetched twice. After a reboot (or before any
    /// boot was recorded), only the synced length the store recorded; the file is cut back to it
    /// here, and this boot is recorded as its writer with the transfer's first checkpoint, so its
    /// unsynced tail is never trusted later.
    ///
    /// A download's first attempt, with nothing of an earlier one recorded (no failure, no synced
    /// byte, no validator), keeps nothing, and its file is not looked up: the launch that made it
    /// the first is committed before any byte of it is written, so a file under its row id is one
    /// that a download with the id before it left (the part file cuts it to nothing as it opens), or
    /// one written before a power cut took that commit back, which a reboot does not trust.
    private func resumeLength(_ row: DownloadRow) throws -> Int64 {
        let isFirstAttempt = row.attempts == 1 && row.lastError == nil && row.bytesDurable == 0 && row.resumeValidator == nil
        guard !isFirstAttempt else { return 0 }
        let path = staging.partFilePath(forRow: row.id)
        var status = stat()
        let fileLength: Int64 = stat(path, &status) == 0 ? Int64(status.st_size) : 0
        // Nothing on disk to keep or cut: no need to ask the store which boot wrote it.
        guard fileLength > 0 else { return 0 }
        var length = min(fileLength, row.bytesDurable)
        if try store.writtenBoot(id: row.id) == bootIdentity {
            length = fileLength
        } else if fileLength > length {
            truncate(path, off_t(length))
        }
        if length > row.bytesDurable {
            logger.info("Download \(row.bundleIdentifier)/\(row.descriptor.identifier) resumes from the \(length) bytes received before the service stopped (\(row.bytesDurable) were synced).")
        }
        return length
    }

    /// Fetches a finished download again from zero, under the same row: its file does not hold the
    /// bytes that arrived (a pack archive whose files were written elsewhere as it arrived, when the
    /// service restarted before its unpack).
    /// - Returns: Whether the download was finished and is back in line.
    @discardableResult
    public func fetchAgain(id: Int64, because reason: String) throws -> Bool {
        guard let row = try store.download(id: id), row.state == .finished else { return false }
        try startOver(row, because: reason)
        pump()
        return true
    }

    /// Puts a download back in line to be fetched from zero.
    func startOver(_ row: DownloadRow, because reason: String) throws {
        staging.discard(rowID: row.id)
        let waiting = try store.update(id: row.id, at: wallClock.now) { row in
            row.state = .waiting
            row.bytesDurable = 0
            row.entityTag = nil
            row.lastModified = nil
            row.nextAttemptAt = wallClock.now
        }
        logger.notice("Download \(row.bundleIdentifier)/\(row.descriptor.identifier) starts over: \(reason).")
        observer(.paused(waiting))
    }

    /// Retries, waits, asks for credentials, or fails, as the error and the policy say.
    func handleFailure(_ row: DownloadRow, _ error: TransferError, restartedBecause restart: String?) throws {
        let now = wallClock.now
        let name = "\(row.bundleIdentifier)/\(row.descriptor.identifier)"
        if case let .authenticationRequired(realm) = error.kind {
            try askForCredentials(row, realm: realm)
            return
        }
        var lastProgress = row.lastProgressAt ?? row.createdAt
        // Bytes that trickled in below the minimum rate are no progress: a run of attempts that
        // each ended too slow keeps the mark the first of them found, so a server sending a byte
        // a second cannot hold a download someone waits for (or, over maxDownloadAge, any other).
        if error.kind == .tooSlow, let run = failureRuns[row.id], run.endedTooSlow { lastProgress = run.lastProgress }
        let run = noteFailure(of: row, restartedBecause: restart, lastProgress: lastProgress, tooSlow: error.kind == .tooSlow)
        if error.isRetryable, let wait = boundedWait(of: row) {
            // Someone is waiting: the clock runs from the later of the last progress and the
            // first failure this service saw (or the promotion), so every download gets at
            // least one retry, however long its first attempt took.
            startWaitClock(of: row, at: now)
            let since = waitingSince[row.id] ?? now
            let waited = now.timeIntervalSince(max(lastProgress, since))
            if waited >= wait {
                fail(row, noProgressFailure(row, error, run: run, waited: waited))
                return
            }
            // The delay the policy would actually wait: Retry-After clamped to retryMaxDelay.
            if let retryAfter = error.retryAfter, waited + policy.clamped(retryAfter: retryAfter).seconds > wait {
                let retry = policy.clamped(retryAfter: retryAfter).seconds
                let kind = row.descriptor.isEssential ? "essential" : "foreground"
                fail(row, TransferError(error.context, error.kind,
                    "\(error.message) with Retry-After \(String(format: "%.0f", retryAfter.seconds)); a retry in \(String(format: "%.1f", retry)) s "
                    + "would come after the \(String(format: "%.1f", wait)) s this \(kind) download may go without progress "
                    + "(\(String(format: "%.1f", waited)) s have passed)").wireFailure)
                return
            }
        }
        guard error.isConnectivityFailure else {
            try retryOrFail(row, error, lastProgress: lastProgress, now: now)
            return
        }
        // With no foreground wait, a foreground download fails at once without connectivity.
        let failsAtOnce = row.isForeground && !row.descriptor.isEssential && configuration.foregroundWait == 0
        guard !failsAtOnce, !policy.hasExpired(lastProgress: lastProgress, now: now) else {
            fail(row, error.wireFailure)
            return
        }
        // One download probes the origin; the others of a background queue park behind it.
        let parks = connectionFailed(row, error.wireFailure) == .park
        // Waiting for connectivity does not spend the retry budget: no attempt is counted.
        let waiting = try store.update(id: row.id, at: now) { row in
            row.state = .waiting
            row.attempts = max(0, row.attempts - 1)
            row.lastError = error.wireFailure
            row.nextAttemptAt = parks
                ? DownloadStore.parkedUntilReachable : now.addingTimeInterval(configuration.connectivityProbeInterval)
        }
        logger.info("Download \(name) waits for connectivity: \(error)")
        observer(.paused(waiting))
    }

    /// Retries a failure that is not about connectivity after the policy's delay, or fails.
    private func retryOrFail(_ row: DownloadRow, _ error: TransferError, lastProgress: Date, now: Date) throws {
        let name = "\(row.bundleIdentifier)/\(row.descriptor.identifier)"
        guard error.isRetryable, !policy.hasExpired(lastProgress: lastProgress, now: now) else {
            fail(row, error.wireFailure)
            return
        }
        let delay = policy.delay(afterFailures: row.attempts, retryAfter: error.retryAfter, using: &random)
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        let waiting = try store.update(id: row.id, at: now) { row in
            row.state = .waiting
            row.lastError = error.wireFailure
            row.nextAttemptAt = now.addingTimeInterval(seconds)
        }
        logger.info("Download \(name) will retry in \(String(format: "%.1f", seconds)) s: \(error)")
        observer(.paused(waiting))
    }

    private func askForCredentials(_ row: DownloadRow, realm: String?) throws {
        let url = URL(string: row.descriptor.url)
        let challenge = ChallengeDescriptor(
            host: url?.host ?? "", port: url?.port ?? 80, protocol: url?.scheme ?? "http", realm: realm,
            authenticationMethod: "NSURLAuthenticationMethodHTTPBasic",
            previousFailureCount: credentials[row.id] == nil ? 0 : 1)
        let waiting = try store.update(id: row.id, at: wallClock.now) { row in
            row.state = .waiting
            row.nextAttemptAt = .distantFuture
        }
        awaitingChallenge[row.id] = challenge
        observer(.challenge(waiting, challenge))
    }

    /// Ends a download with an error and deletes its staging file.
    func fail(_ row: DownloadRow, _ failure: WireFailure) {
        staging.discard(rowID: row.id)
        credentials[row.id] = nil
        awaitingChallenge[row.id] = nil
        forgetFailures(of: row.id)
        do {
            let failed = try store.update(id: row.id, at: wallClock.now) { row in
                row.state = .failed
                row.lastError = failure
            }
            logger.error("Download \(row.bundleIdentifier)/\(row.descriptor.identifier) failed: \(failure.message)")
            observer(.failed(failed, failure))
        } catch {
            keepUnrecorded(.failed(failure), of: row.id, because: error)
        }
    }

    /// Answers a challenge: retry with the credential, or fail as the delegate chose.
    /// - Throws: ``DaemonError/downloadNotFound(key:)`` when the download is not waiting for an answer.
    public func answerChallenge(id: Int64, answer: ChallengeAnswer) throws {
        guard awaitingChallenge.removeValue(forKey: id) != nil, let row = try store.download(id: id) else {
            throw DaemonError.downloadNotFound(key: "row \(id) awaiting credentials")
        }
        switch answer.disposition {
        case .useCredential:
            credentials[id] = BasicCredential(user: answer.user ?? "", password: answer.password ?? "")
            let now = wallClock.now
            try store.update(id: id, at: now) { $0.nextAttemptAt = now }
            pump()
        case .performDefaultHandling, .rejectProtectionSpace:
            fail(row, TransferError(.remote, .authenticationRequired(realm: nil),
                                    "\(row.descriptor.url) requires authentication and no credential was given").wireFailure)
        case .cancelAuthenticationChallenge:
            fail(row, TransferError(.transport, .cancelled, "the authentication challenge was cancelled").wireFailure)
        }
    }
}
