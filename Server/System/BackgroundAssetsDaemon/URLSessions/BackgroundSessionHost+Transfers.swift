/*
Abstract:
The queue's events for background-session transfers, turned into the sessions' events, and what a restart finds.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundSessionHost {
    /// The session and task a queue row of a background session belongs to.
    static func reference(of row: DownloadRow) -> TaskReference? {
        guard row.descriptor.kind == .backgroundSession,
              let (session, task) = BackgroundSessionPolicy.task(fromQueueIdentifier: row.descriptor.identifier) else { return nil }
        return TaskReference(key: BackgroundSessionKey(bundleIdentifier: row.bundleIdentifier, sessionIdentifier: session), task: task)
    }

    /// Takes one of the queue's events about a background session's transfer.
    func transfer(_ event: QueueEvent, isolation: isolated (any Actor)? = #isolation) async {
        guard let reference = Self.reference(of: event.row) else { return }
        let (key, task) = (reference.key, reference.task)
        switch event {
        case let .began(row):
            rows[reference] = row.id
            progressSamples.forget(rowID: row.id)
            traceTransfer("downloadDidBegin", row)
            startingAttempts.insert(reference)
        case let .paused(row):
            traceTransfer("downloadDidPause", row, detail: row.state == .waiting ? row.lastError?.message : nil)
            progressSamples.forget(rowID: row.id)
        case let .progress(row, written, total, expected):
            if progressSamples.keeps(rowID: row.id, written: total, expected: expected, at: now) {
                traceTransfer(TraceEntry.progressEvent, row, written: total)
            }
            // An attempt's first bytes say where it starts, with the file's length known by then:
            // one that starts past zero is a resume (resume data, a restart of the service).
            if startingAttempts.remove(reference) != nil, total - written > 0 {
                await perform(state.transferResumed(task: task, key: key, offset: total - written, expected: expected))
            }
            await perform(state.transferProgressed(task: task, key: key, written: written, total: total, expected: expected))
        case let .finished(row, file):
            rows[reference] = nil
            startingAttempts.remove(reference)
            progressSamples.forget(rowID: row.id)
            traceTransfer("finishedWithFileURL", row, detail: file.lastPathComponent)
            await perform(state.transferFinished(task: task, key: key, file: file, response: Self.response(of: row)))
        case let .failed(row, failure):
            rows[reference] = nil
            startingAttempts.remove(reference)
            progressSamples.forget(rowID: row.id)
            traceTransfer("failedWithError", row, detail: failure.message)
            await perform(state.transferFailed(task: task, key: key, failure: BackgroundTaskFailure(error: failure)))
        case let .redirected(row, from, to, status):
            traceTransfer("redirected", row, detail: "\(status) from \(from.absoluteString) to \(to.absoluteString)")
        case .challenge:
            // Answered through ``challenge(_:row:challengeID:)``, which the service calls with an id it can route back.
            break
        }
    }

    /// The server asked a session's transfer for credentials: the process that has the session
    /// answers it like any challenge.
    /// - Returns: Whether a process has the session; otherwise the service answers with default handling.
    func challenge(_ challenge: ChallengeDescriptor, row: DownloadRow, challengeID: UInt64,
                   isolation: isolated (any Actor)? = #isolation) async -> Bool {
        guard let reference = Self.reference(of: row), state.isAttached(reference.key) else { return false }
        guard let connection = state.attachments[reference.key] else { return false }
        await perform([.send(connection: connection, reference.key,
                             .challenge(taskIdentifier: reference.task, challengeID: challengeID, challenge))])
        return true
    }

    /// The server's answer a finished transfer came with, as the task's `response` reports it.
    static func response(of row: DownloadRow) -> BackgroundTaskResponse {
        var headers: [String: String] = [:]
        if let length = row.expectedLength { headers["Content-Length"] = "\(length)" }
        if let tag = row.entityTag { headers["ETag"] = tag }
        if let date = row.lastModified { headers["Last-Modified"] = date }
        let url = URL(string: row.descriptor.url) ?? URL(fileURLWithPath: "/")
        return BackgroundTaskResponse(url: url, statusCode: 200, headers: headers)
    }

    // MARK: - Connections and apps

    /// A connection closed: its sessions' events wait from now on. Returns what is left to do (a
    /// file it was sent and did not handle waits again, which may launch the app), for
    /// ``perform(_:isolation:)``: the detaching itself is done before this returns.
    func connectionClosed(_ connection: UInt64) -> [BackgroundSessionAction] {
        guard connections.removeValue(forKey: connection) != nil else { return [] }
        let undelivered = undelivered.removeValue(forKey: connection) ?? [:]
        return state.connectionClosed(connection, undelivered: undelivered) { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// A process of the app runs: a running app is not launched for events.
    func setRunning(app: String) {
        state.runningApps.insert(app)
    }

    /// No process of the app runs any more: returns what is left to do (the launch for completions
    /// that waited while it ran), for ``perform(_:isolation:)``.
    func appStopped(_ app: String) -> [BackgroundSessionAction] {
        state.appStopped(app)
    }

    /// The app was uninstalled: its sessions, their waiting transfers and kept partial files go with it.
    func appRemoved(_ app: String, isolation: isolated (any Actor)? = #isolation) async {
        for reference in waiting.keys where reference.key.bundleIdentifier == app { waiting[reference] = nil }
        for reference in rows.keys where reference.key.bundleIdentifier == app { rows[reference] = nil }
        for reference in Set(uploads.keys).union(uploadTimers.keys) where reference.key.bundleIdentifier == app {
            cancelUpload(reference, removingBody: false)
        }
        if let folder = files.uploadBodiesDirectory(for: app) { try? FileManager.default.removeItem(at: folder) }
        launchedForEvents[app] = nil
        handlingLimits.removeValue(forKey: app)?.cancel()
        await perform(state.removeApp(app))
        if let folder = files.partialFilesDirectory(for: app) { try? FileManager.default.removeItem(at: folder) }
    }

    // MARK: - Tracing

    /// Appends a line about a session or one of its tasks.
    func trace(_ event: String, key: BackgroundSessionKey, task: Int?, from: String = "backgroundassetsd", to: String,
               detail: String? = nil) {
        let about = "session \(key.sessionIdentifier)" + (task.map { " task \($0)" } ?? "")
        trace.append(.init(from: from, to: to, event: event, app: key.bundleIdentifier,
                           download: task.map { BackgroundSessionPolicy.queueIdentifier(for: key, task: $0) },
                           detail: detail.map { "\(about): \($0)" } ?? about))
    }

    /// Appends a line about a transfer, with where it stands, so a timeline draws it as a lane.
    private func traceTransfer(_ event: String, _ row: DownloadRow, written: Int64? = nil, detail: String? = nil) {
        let key = Self.reference(of: row)?.key
        let receiver = key.map { state.isAttached($0) ? "app" : "nobody" } ?? "nobody"
        let expected = row.expectedLength
        let bytes = written ?? (row.state == .finished ? expected ?? row.bytesDurable : row.bytesDurable)
        let session = key.map { "session \($0.sessionIdentifier)" }
        trace.append(.init(from: "backgroundassetsd", to: receiver, event: event, app: row.bundleIdentifier,
                           download: row.descriptor.identifier,
                           detail: [session, detail].compactMap { $0 }.joined(separator: ": "),
                           transfer: TraceTransfer(written: bytes, expected: expected, foreground: false, essential: false,
                                                   priority: row.descriptor.priority)))
    }
}

extension QueueEvent {
    /// The download the event is about.
    var row: DownloadRow {
        switch self {
        case let .began(row), let .paused(row), let .progress(row, _, _, _), let .challenge(row, _), let .finished(row, _),
            let .failed(row, _), let .redirected(row, _, _, _):
            row
        }
    }
}
