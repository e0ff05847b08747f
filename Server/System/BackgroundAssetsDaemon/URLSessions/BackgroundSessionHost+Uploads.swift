/*
Abstract:
A background session's uploads: the app's file copied when the task is made, sent on a transfer thread, tried again after failures, and its answer delivered.
*/

import BackgroundAssetsIPC
import Foundation

/// One attempt at an upload: its task and the control that stops it.
struct UploadAttempt: Sendable {
    var reference: BackgroundSessionHost.TaskReference
    let control: TransferControl
    /// Which attempt this is, from 1.
    var number: Int
}

/// What an upload's transfer thread reports, in order: bytes sent, then the end.
enum UploadReport: Sendable {
    case progressed(sent: Int64, total: Int64, expected: Int64)
    case ended(Result<BackgroundUploadTransfer.Answer, TransferError>)
}

extension BackgroundSessionHost {
    /// Whether an upload is sending, or waiting to start or try again: the service must not exit
    /// idle, since uploads are not in the download queue that keeps it running.
    var hasUploadsInFlight: Bool { !uploads.isEmpty || !uploadTimers.isEmpty }

    /// How many times an upload is tried before its task fails.
    static let maximumUploadAttempts = 4

    /// The pause before attempt `number + 1`: 2, 4, 8 seconds of device time.
    static func uploadRetryDelay(after number: Int) -> Duration {
        .seconds(1 << min(number, 6))
    }

    /// Copies the file an upload task sends, when the task is made: the app may change or delete its
    /// file afterwards, and the system sends what it was given, as Apple's does.
    /// - Returns: The request naming the copy.
    /// - Throws: ``Refusal`` naming the file and why the system cannot read it.
    func stageUploadBody(_ request: BackgroundTaskRequest, app: String, appGroups: [String]) throws(Refusal) -> BackgroundTaskRequest {
        guard let source = request.bodyFile else { return request }
        do {
            var staged = request
            staged.bodyFile = try files.stageUploadBody(copying: source, for: app, appGroups: appGroups)
            return staged
        } catch {
            throw Refusal(message: "The file \(source.path) cannot be uploaded: \(error.reason). Pass a regular file the app "
                + "can read to uploadTask(with:fromFile:).")
        }
    }

    /// Starts a resumed upload now, or at its `earliestBeginDate`.
    func startUpload(_ reference: TaskReference, request: BackgroundTaskRequest, notBefore: Date?, attempt number: Int = 1,
                     isolation: isolated (any Actor)? = #isolation) {
        cancelUpload(reference, removingBody: false)
        if let notBefore, notBefore > now {
            uploadTimers[reference] = activities.atIsolated(notBefore, "upload of task \(reference.task)") {
                [weak self] in await self?.uploadRetryDue(reference)
            }
            return
        }
        guard let body = request.bodyFile else { return }
        let attempt = UploadAttempt(reference: reference, control: TransferControl(), number: number)
        uploads[reference] = attempt
        let stall = state.record(reference.key)?.settings.timeoutIntervalForRequest ?? 60
        let (stream, continuation) = AsyncStream<UploadReport>.makeStream()
        let transfer = BackgroundUploadTransfer(
            request: request, body: body, trust: queue.trust, stallTimeout: .seconds(fractional: stall), control: attempt.control
        ) { sent, total, expected in
            continuation.yield(.progressed(sent: sent, total: total, expected: expected))
        }
        // One reader, on the host's actor, takes the attempt's reports in the order its thread sent them.
        activities.runIsolated("upload of task \(reference.task) of \(reference.key.sessionIdentifier)") { [weak self] in
            for await report in stream {
                switch report {
                case let .progressed(sent, total, expected):
                    await self?.uploadProgressed(attempt, sent: sent, total: total, expected: expected)
                case let .ended(result):
                    await self?.uploadEnded(attempt, result)
                }
            }
        }
        trace("uploadDidBegin", key: reference.key, task: reference.task, to: "nobody",
              detail: number > 1 ? "attempt \(number)" : nil)
        TransferThreads.shared.run {
            let result = Result { () throws(TransferError) in try transfer.run() }
            continuation.yield(.ended(result))
            continuation.finish()
        }
    }

    /// An attempt sent bytes; those of an attempt the task no longer runs are old news.
    func uploadProgressed(_ attempt: UploadAttempt, sent: Int64, total: Int64, expected: Int64,
                          isolation: isolated (any Actor)? = #isolation) async {
        guard uploads[attempt.reference]?.control === attempt.control else { return }
        await perform(state.uploadProgressed(task: attempt.reference.task, key: attempt.reference.key, sent: sent,
                                             total: total, expected: expected))
    }

    /// An attempt ended: the answer completes the task; a failure the network may mend is tried
    /// again after a pause, up to ``maximumUploadAttempts``; any other fails the task.
    func uploadEnded(_ attempt: UploadAttempt, _ result: Result<BackgroundUploadTransfer.Answer, TransferError>,
                     isolation: isolated (any Actor)? = #isolation) async {
        let reference = attempt.reference
        guard uploads[reference]?.control === attempt.control else { return }
        uploads[reference] = nil
        switch result {
        case let .success(answer):
            trace("uploadFinished", key: reference.key, task: reference.task, to: "nobody",
                  detail: "\(answer.response.statusCode), \(answer.body.count) response bytes")
            removeUploadBody(reference)
            await perform(state.uploadFinished(task: reference.task, key: reference.key, response: answer.response, body: answer.body))
        case let .failure(error) where error.isRetryable && attempt.number < Self.maximumUploadAttempts:
            trace("uploadDidPause", key: reference.key, task: reference.task, to: "nobody",
                  detail: "attempt \(attempt.number) failed, trying again: \(error.description)")
            let next = attempt.number + 1
            uploadTimers[reference] = activities.afterIsolated(Self.uploadRetryDelay(after: attempt.number), "upload retry") {
                [weak self] in await self?.uploadRetryDue(reference)
            }
            retryingUploads[reference] = next
        case let .failure(error):
            trace("uploadFailed", key: reference.key, task: reference.task, to: "nobody", detail: error.description)
            removeUploadBody(reference)
            await perform(state.transferFailed(task: reference.task, key: reference.key,
                                               failure: BackgroundTaskFailure(error: error.wireFailure)))
        }
    }

    /// A pause is over: the upload starts, or tries again, if its task still runs.
    func uploadRetryDue(_ reference: TaskReference, isolation: isolated (any Actor)? = #isolation) async {
        uploadTimers[reference] = nil
        let number = retryingUploads.removeValue(forKey: reference) ?? 1
        guard let snapshot = state.record(reference.key)?.tasks[reference.task], snapshot.state == .running else { return }
        startUpload(reference, request: snapshot.currentRequest, notBefore: nil, attempt: number)
    }

    /// Stops an upload's attempt or its wait; its copied file goes too unless the task may resume.
    func cancelUpload(_ reference: TaskReference, removingBody: Bool) {
        uploads.removeValue(forKey: reference)?.control.cancel()
        uploadTimers.removeValue(forKey: reference)?.cancel()
        retryingUploads[reference] = nil
        guard removingBody else { return }
        removeUploadBody(reference)
        // The state may have let the task go before this action ran (a cancellation completes it
        // at once): its copy is then found as the one no task names.
        removeUnreferencedUploadBodies(of: reference.key.bundleIdentifier)
    }

    /// Deletes the app's upload copies no task of its sessions sends any more.
    func removeUnreferencedUploadBodies(of app: String) {
        let referenced = Set(state.sessions.filter { $0.key.bundleIdentifier == app }
            .flatMap { $0.tasks.values.compactMap { $0.currentRequest.bodyFile?.path } })
        files.removeUnreferencedUploadBodies(for: app, keeping: referenced)
    }

    private func removeUploadBody(_ reference: TaskReference) {
        guard let body = state.record(reference.key)?.tasks[reference.task]?.currentRequest.bodyFile else { return }
        files.removeUploadBody(body, for: reference.key.bundleIdentifier)
    }
}
