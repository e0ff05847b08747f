/*
Abstract:
Starting a download's transfer on its own thread, and deciding what its outcome means for the download.
*/

import BackgroundAssetsIPC
import Foundation

extension DownloadQueue {
    /// Marks a download as transferring and starts its transfer on a new thread.
    func launch(_ stored: DownloadRow) throws {
        let row = try store.update(id: stored.id, at: .now) { row in
            row.state = .downloading
            row.attempts += 1
        }
        let descriptor = row.descriptor
        guard let url = URL(string: descriptor.url) else {
            fail(row, TransferError(.remote, .unsupportedURL, "\(descriptor.url) is not a URL").wireFailure)
            return
        }
        var validator: ResumeValidator?
        if let tag = row.entityTag { validator = .entityTag(tag) } else if let date = row.lastModified { validator = .lastModified(date) }
        let request = TransferRequest(
            url: url, partFile: staging.partFile(forRow: row.id),
            expectedLength: descriptor.fileSize > 0 ? Int64(descriptor.fileSize) : nil,
            durableLength: row.bytesDurable, validator: validator, credential: credentials[row.id],
            headers: descriptor.headers,
            checkpointBytes: configuration.checkpointBytes,
            checkpointInterval: .seconds(fractional: configuration.checkpointInterval),
            stallTimeout: .seconds(fractional: configuration.stallTimeout),
            allowedHosts: allowedHosts[row.bundleIdentifier], trust: trust)
        let control = TransferControl()
        running[row.id] = RunningTransfer(control: control, isForeground: row.isForeground)
        observer(.began(row))

        let recorder = TransferRecorder(row: row, store: store, observer: observer, logger: logger)
        Thread.detachNewThread { [weak self] in
            let transfer = HTTPTransfer(request: request, control: control, events: recorder.record)
            let result = Result { () throws(TransferError) in try transfer.run() }
            Task { await self?.transferEnded(id: row.id, control: control, result: result) }
        }
    }

    /// Records the outcome of a transfer, unless the download was cancelled meanwhile.
    func transferEnded(id: Int64, control: TransferControl, result: Result<TransferResult, TransferError>) {
        guard running[id]?.control === control else { return }
        running[id] = nil
        defer { pump() }
        do {
            guard let row = try store.download(id: id) else { return }
            switch result {
            case let .success(transferred):
                let file = try staging.handOver(rowID: id, toAppGroup: row.descriptor.applicationGroupIdentifier)
                credentials[id] = nil
                offlineSince[id] = nil
                let finished = try store.update(id: id, at: .now) { row in
                    row.state = .finished
                    row.bytesDurable = transferred.length
                    row.lastError = nil
                }
                observer(.finished(finished, file: file))
            case let .failure(error):
                try handleFailure(row, error)
            }
        } catch let error as TransferError {
            if let row = try? store.download(id: id) { fail(row, error.wireFailure) }
        } catch {
            logger.error("Recording the end of download \(id) failed: \(error). The service will retry it after a restart.")
        }
    }

    /// Retries, waits, asks for credentials, or fails, as the error and the policy say.
    private func handleFailure(_ row: DownloadRow, _ error: TransferError) throws {
        let now = Date.now
        let name = "\(row.bundleIdentifier)/\(row.descriptor.identifier)"
        if case let .authenticationRequired(realm) = error.kind {
            try askForCredentials(row, realm: realm)
            return
        }
        let lastProgress = row.lastProgressAt ?? row.createdAt
        guard error.isConnectivityFailure else {
            offlineSince[row.id] = nil
            try retryOrFail(row, error, lastProgress: lastProgress, now: now)
            return
        }
        // The wait is measured from the first failure of this run, so a download that waited in
        // the queue before its first attempt still gets the whole wait.
        let since = offlineSince[row.id] ?? now
        offlineSince[row.id] = since
        let waitedTooLong = row.descriptor.isEssential
            && now.timeIntervalSince(since) > configuration.essentialConnectivityWait
        guard !row.isForeground, !waitedTooLong, !policy.hasExpired(lastProgress: lastProgress, now: now) else {
            fail(row, error.wireFailure)
            return
        }
        // Waiting for connectivity does not spend the retry budget: no attempt is counted.
        let waiting = try store.update(id: row.id, at: now) { row in
            row.state = .waiting
            row.attempts = max(0, row.attempts - 1)
            row.lastError = error.wireFailure
            row.nextAttemptAt = now.addingTimeInterval(configuration.connectivityProbeInterval)
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
        let waiting = try store.update(id: row.id, at: .now) { row in
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
        offlineSince[row.id] = nil
        do {
            let failed = try store.update(id: row.id, at: .now) { row in
                row.state = .failed
                row.lastError = failure
            }
            logger.error("Download \(row.bundleIdentifier)/\(row.descriptor.identifier) failed: \(failure.message)")
            observer(.failed(failed, failure))
        } catch {
            logger.error("Recording the failure of download \(row.id) failed: \(error).")
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
            try store.update(id: id, at: .now) { $0.nextAttemptAt = .now }
            pump()
        case .performDefaultHandling, .rejectProtectionSpace:
            fail(row, TransferError(.remote, .authenticationRequired(realm: nil),
                                    "\(row.descriptor.url) requires authentication and no credential was given").wireFailure)
        case .cancelAuthenticationChallenge:
            fail(row, TransferError(.transport, .cancelled, "the authentication challenge was cancelled").wireFailure)
        }
    }
}
