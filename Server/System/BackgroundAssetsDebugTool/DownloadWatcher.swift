/*
Abstract:
Follows one download to its end: starts or finds it, answers challenges, shows progress, takes the file.
*/

import BackgroundAssetsIPC
import Foundation
import ServiceClient

/// Drives one `download` from the first request to the moved file.
///
/// The service keeps the download whatever happens to the tool, so the watcher's job is to find it
/// (or start it), listen to its events, and take its file. Because a killed service drops the
/// connection without an event, the watcher also asks for the app's current downloads on every
/// tick: that request reconnects (starting the service again) and shows whether the download
/// ended while nobody was listening.
struct DownloadWatcher {
    /// What the watcher reacts to.
    enum Signal: Sendable {
        /// An event from the service.
        case event(ServerEvent)
        /// Time passed; check that the download is still there.
        case tick
    }

    let request: DownloadRequest
    let connection: ServiceConnection
    /// The device root, where a file that could not be placed is kept.
    let paths: DevicePaths
    private var progress: ProgressReporter
    private var uniqueIdentifier: String?
    /// Ticks in a row on which the download was missing from the current downloads without an event.
    private var missingTicks = 0
    /// Times the download was started again because its file was handed over while nobody listened.
    private var restarts = 0
    private var reportedUnreachable = false
    /// When the download last wrote bytes (or the watcher started), to notice that it waits.
    private var lastProgress = ContinuousClock.now
    /// The wait last reported, so each reason is said once and its end is said too.
    private var reportedWait: String?

    init(request: DownloadRequest, connection: ServiceConnection, paths: DevicePaths, console: Console) {
        self.request = request
        self.connection = connection
        self.paths = paths
        progress = ProgressReporter(console: console, identifier: request.identifier)
    }

    /// Places the file an earlier run downloaded but could not place, if there is one.
    /// - Returns: `true` when it was placed and there is nothing to download.
    /// - Throws: ``DebugToolError`` when it still cannot be placed; it stays kept.
    mutating func placeKeptFile() throws -> Bool {
        guard let kept = KeptDownload(identifier: request.identifier, paths: paths), kept.exists else { return false }
        try kept.place(at: request.output)
        progress.note("Placed \(request.output.path) from the file an earlier run downloaded and kept.")
        return true
    }

    /// Finds the download an earlier run left in the queue, or starts a new one.
    mutating func start() async throws {
        if let existing = try await currentDownload() {
            uniqueIdentifier = existing.uniqueIdentifier
            progress.note("Resuming \(request.identifier) (\(StatusFormatter.name(of: existing.state))) from an earlier run.")
            if request.foreground {
                // Promotes a background download; does nothing to one already in the foreground.
                _ = try await connection.send(.downloads(.startForeground(download: existing)))
            }
            return
        }
        let descriptor = request.makeDescriptor()
        let response = try await connection.send(
            request.foreground ? .downloads(.startForeground(download: descriptor)) : .downloads(.schedule(download: descriptor)))
        if case let .download(stored) = response { uniqueIdentifier = stored.uniqueIdentifier }
        progress.note("Started \(request.identifier): \(request.url) -> \(request.output.path)")
    }

    /// Handles signals until the download finishes (returns) or fails (throws).
    mutating func watch(_ signals: AsyncStream<Signal>) async throws {
        for await signal in signals {
            switch signal {
            case let .event(event):
                if try await handle(event) { return }
            case .tick:
                try await checkStillQueued()
            }
        }
    }

    /// Reacts to one event; returns `true` once the file is in place.
    private mutating func handle(_ event: ServerEvent) async throws -> Bool {
        switch event {
        case let .didWriteBytes(download, _, total, expected) where isOurs(download):
            lastProgress = .now
            if reportedWait != nil {
                reportedWait = nil
                progress.note("The server answers again; downloading \(request.identifier).")
            }
            progress.update(written: total, expected: expected)
        case let .didReceiveChallenge(deliveryID, download, challenge) where isOurs(download):
            try await answer(challenge, deliveryID: deliveryID)
        case let .failed(download, failure) where isOurs(download):
            progress.finishLine()
            throw failed(failure.message)
        case let .finished(deliveryID, download, filePath) where isOurs(download):
            progress.finishLine()
            let handedOver = URL(fileURLWithPath: filePath)
            do {
                try FinishedFilePlacer.place(handedOver, at: request.output)
            } catch {
                // Acknowledging lets the service delete the file: keep it first, so a full disk at
                // the output costs a move later, not the whole download again.
                let kept = KeptDownload(identifier: request.identifier, paths: paths)
                let isKept = kept?.keep(handedOver) == true
                await acknowledge(deliveryID)
                guard let kept, isKept else { throw error }
                let reason = (error as? DebugToolError)?.message ?? DebugTool.describe(error)
                throw DebugToolError("\(reason) The downloaded file is kept at \(kept.file.path); run the same "
                    + "command again to place it without downloading it again, or move it yourself.")
            }
            await acknowledge(deliveryID)
            let size = (try? FileManager.default.attributesOfItem(atPath: request.output.path)[.size] as? Int) ?? 0
            progress.note("Downloaded \(request.url) to \(request.output.path) (\(size) bytes).")
            return true
        default:
            break
        }
        return false
    }

    /// Hands the delivered file back to the service, which deletes its copy, and waits for the answer:
    /// the command ends only once nothing of the download is left in the hand-over folder.
    private func acknowledge(_ deliveryID: UInt64) async {
        // A service that went away meanwhile deletes hand-over files when it starts again.
        _ = try? await connection.send(.downloads(.acknowledgeDelivery(deliveryID: deliveryID)))
    }

    private func isOurs(_ download: DownloadDescriptor) -> Bool {
        download.identifier == request.identifier
            && (uniqueIdentifier == nil || download.uniqueIdentifier == uniqueIdentifier)
    }

    private mutating func answer(_ challenge: ChallengeDescriptor, deliveryID: UInt64) async throws {
        let answer: ChallengeAnswer
        if let credential = request.credential, challenge.previousFailureCount == 0 {
            progress.note("\(challenge.host):\(challenge.port) asks for a password; answering as \(credential.user).")
            answer = ChallengeAnswer(disposition: .useCredential, user: credential.user, password: credential.password)
        } else {
            let why = request.credential.map { "the server refused the credential for \($0.user)" } ?? "no --credential was given"
            progress.note("\(challenge.host):\(challenge.port) asks for a password and \(why); the download will fail.")
            answer = ChallengeAnswer(disposition: .performDefaultHandling)
        }
        _ = try await connection.send(.downloads(.answerChallenge(deliveryID: deliveryID, answer: answer)))
    }

    /// Confirms the download is still queued; finds out how it ended when it is not.
    private mutating func checkStillQueued() async throws {
        let current: DownloadDescriptor?
        do {
            current = try await currentDownload()
        } catch {
            // The service is restarting; the next tick tries again (and starts it if need be).
            if !reportedUnreachable { progress.note("The service is not answering; retrying: \(DebugTool.describe(error))") }
            reportedUnreachable = true
            return
        }
        if reportedUnreachable { progress.note("Reconnected to the service; waiting for \(request.identifier).") }
        reportedUnreachable = false
        guard current == nil else {
            missingTicks = 0
            await explainWait()
            return
        }
        // The last event may still be on its way behind the answer that no longer lists the download.
        missingTicks += 1
        guard missingTicks >= 4 else { return }
        missingTicks = 0
        try await recoverMissingDownload()
    }

    /// Says, once per reason, what a download that has made no progress for a while waits for and
    /// what to do, so a server that is down does not look like a hang.
    private mutating func explainWait() async {
        guard ContinuousClock.now - lastProgress >= ServerWait.quietPeriod else { return }
        // The status lists every download; asked at most once per quiet period, not on every tick.
        lastProgress = .now
        guard case let .status(status)? = try? await connection.send(.core(.fetchStatus)),
              let row = status.downloads.last(where: {
                  $0.bundleIdentifier == ToolContext.bundleIdentifier && $0.download.uniqueIdentifier == uniqueIdentifier
              }),
              let reason = ServerWait.reason(of: row), reason != reportedWait
        else { return }
        reportedWait = reason
        progress.note("\(reason) The service keeps trying, and the download goes on by itself once the server answers: "
            + "start the server, or press Ctrl-C to leave the download queued "
            + "(`backgroundassets-debug cancel \(request.identifier)` drops it).")
    }

    /// The download ended with nobody listening (or was removed): report it, or start it again.
    private mutating func recoverMissingDownload() async throws {
        let status = try await connection.fetchStatusWithEveryDownload()
        let row = status.downloads.last {
            $0.bundleIdentifier == ToolContext.bundleIdentifier && $0.download.uniqueIdentifier == uniqueIdentifier
        }
        switch row?.download.state {
        case .failed?:
            throw failed(row?.lastError?.message ?? "no reason was recorded")
        case .finished? where restarts < 2:
            // Its file was handed over while the tool was not connected, and deleted; fetch it again.
            restarts += 1
            progress.note("The download finished while the tool was not connected, so its file is gone; starting again.")
            uniqueIdentifier = nil
            try await start()
        default:
            throw DebugToolError("The download \(request.identifier) is no longer queued: it was cancelled or the "
                + "queue was reset. Run the command again to start over.")
        }
    }

    /// The error for a failed download: the service's reason, then what to do about it.
    private func failed(_ reason: String) -> DebugToolError {
        let sentence = reason.hasSuffix(".") ? reason : reason + "."
        return DebugToolError("The download of \(request.url) failed: \(sentence) Fix the cause (the server, the URL, "
            + "--size or --credential) and run the command again; a failed download starts over.")
    }

    /// The app's current download with this request's identifier, if any, read a page at a time so
    /// that no queue is too long to answer.
    private func currentDownload() async throws -> DownloadDescriptor? {
        var list = CurrentDownloadsList()
        while let after = list.nextPageAfter {
            guard case let .currentDownloadsPage(page) = try await connection.send(.downloads(.fetchCurrentDownloadsPage(after: after)))
            else { return nil }
            try list.add(page)
        }
        return list.downloads.first { $0.identifier == request.identifier }
    }
}
