/*
Abstract:
The queue's events for background-session transfers, the relaunch for events, force-quit, and closed connections.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundSessionState {
    /// A transfer continues from an offset (a restart of the service, resume data).
    public mutating func transferResumed(task: Int, key: BackgroundSessionKey, offset: Int64, expected: Int64)
        -> [BackgroundSessionAction]
    {
        guard records[key]?.tasks[task]?.state == .running, let connection = attachments[key] else { return [] }
        return [.send(connection: connection, key, .resumed(taskIdentifier: task, offset: offset, expectedTotalBytes: expected))]
    }

    /// A transfer wrote bytes. Progress of a session no process has is not kept: the next process
    /// reads the task's counts.
    public mutating func transferProgressed(task: Int, key: BackgroundSessionKey, written: Int64, total: Int64,
                                            expected: Int64) -> [BackgroundSessionAction] {
        guard records[key]?.tasks[task] != nil else { return [] }
        records[key]?.tasks[task]?.countOfBytesReceived = total
        records[key]?.tasks[task]?.countOfBytesExpectedToReceive = expected
        guard let connection = attachments[key] else { return [] }
        return [.send(connection: connection, key, .wroteData(taskIdentifier: task, bytesWritten: written,
                                                              totalBytesWritten: total, totalBytesExpectedToWrite: expected))]
    }

    /// A transfer finished, its file handed over in the session's folder: the app receives the file,
    /// then the task's completion; a file no task waits for, and no event names, is deleted.
    public mutating func transferFinished(task: Int, key: BackgroundSessionKey, file: URL, response: BackgroundTaskResponse)
        -> [BackgroundSessionAction]
    {
        guard records[key]?.tasks[task]?.state == .running else { return removal(ofUnwanted: file, key: key) }
        records[key]?.tasks[task]?.response = response
        let length = Int64(response.headers["Content-Length"] ?? "")
        if let length {
            records[key]?.tasks[task]?.countOfBytesReceived = length
            records[key]?.tasks[task]?.countOfBytesExpectedToReceive = length
        }
        let finished = BackgroundSessionEvent.finishedDownloading(taskIdentifier: task, file: file, response: response)
        if attachments[key] != nil {
            let sent = records[key]?.unacknowledged ?? []
            records[key]?.unacknowledged = sent + [finished]
        }
        return deliver(finished, key: key) + complete(task: task, key: key, failure: nil)
    }

    /// A transfer failed for good (after the queue's retries).
    public mutating func transferFailed(task: Int, key: BackgroundSessionKey, failure: BackgroundTaskFailure)
        -> [BackgroundSessionAction]
    {
        guard records[key]?.tasks[task]?.state == .running else { return [] }
        return complete(task: task, key: key, failure: failure)
    }

    /// Fails the tasks that have run past their session's `timeoutIntervalForResource`.
    public mutating func expireTasks(now: Date) -> [BackgroundSessionAction] {
        var actions: [BackgroundSessionAction] = []
        for key in records.keys.sorted() {
            guard let record = records[key] else { continue }
            for task in record.tasks.keys.sorted()
            where record.tasks[task]?.state == .running
                && BackgroundSessionPolicy.hasExpired(started: record.started[task], settings: record.settings, now: now) {
                let message = "The download took longer than the session's timeoutIntervalForResource "
                    + "(\(Int(record.settings.timeoutIntervalForResource)) s); start it again or raise the timeout."
                actions.append(.cancelTransfer(key, task: task, keepPartialFile: false))
                actions += complete(task: task, key: key, failure: BackgroundTaskFailure(
                    error: WireFailure(domain: WireFailure.urlDomain, code: BackgroundSessionPolicy.timedOutCode, message: message)))
            }
        }
        return actions
    }

    /// When the next running task will have run past its resource timeout, for the host's timer.
    public var nextExpiry: Date? {
        records.values.flatMap { record in
            record.started.compactMap { task, started in
                record.tasks[task]?.state == .running ? started.addingTimeInterval(record.settings.timeoutIntervalForResource) : nil
            }
        }.min()
    }

    /// A person force-quit the app: its transfers are cancelled with Apple's reason, and the app is
    /// not launched for them; it hears of them when it next makes the session.
    public mutating func forceQuit(app: String) -> [BackgroundSessionAction] {
        forceQuitApps.insert(app)
        // Its processes are being killed: what they would have been sent waits for the next one.
        attachments = attachments.filter { $0.key.bundleIdentifier != app }
        var actions: [BackgroundSessionAction] = []
        for key in records.keys.sorted() where key.bundleIdentifier == app {
            for task in (records[key]?.tasks.keys.sorted() ?? []) where records[key]?.tasks[task]?.state != .completed {
                actions.append(.cancelTransfer(key, task: task, keepPartialFile: false))
                actions += complete(task: task, key: key, failure: .cancelled(reason: .userForceQuitApplication))
            }
        }
        return actions
    }

    /// No process of the app runs any more: a session whose completions waited while one ran (one
    /// that did not have the session, or had it and closed it first) launches the app now.
    public mutating func appStopped(_ app: String) -> [BackgroundSessionAction] {
        runningApps.remove(app)
        return records.keys.filter { $0.bundleIdentifier == app }.sorted().flatMap { launchIfDue($0) }
    }

    /// The app could not be launched for a session's events: the next process that makes the
    /// session gets them without `urlSessionDidFinishEvents`.
    public mutating func launchFailed(key: BackgroundSessionKey) {
        records[key]?.launchedForEvents = false
    }

    /// Whether a process of the app has the session.
    public func isAttached(_ key: BackgroundSessionKey) -> Bool { attachments[key] != nil }

    /// The identifiers of the app's sessions whose events wait, the ones it was launched for first.
    public func sessionsAwaitingEvents(app: String) -> [String] {
        records.values.filter { $0.key.bundleIdentifier == app && ($0.launchedForEvents || !$0.waiting.isEmpty) }
            .sorted { ($0.launchedForEvents ? 0 : 1, $0.key) < ($1.launchedForEvents ? 0 : 1, $1.key) }
            .map(\.key.sessionIdentifier)
    }

    /// Sets a task's completion and sends it, or keeps it for the next process (launching the app
    /// when the session asks for it).
    mutating func complete(task: Int, key: BackgroundSessionKey, failure: BackgroundTaskFailure?) -> [BackgroundSessionAction] {
        guard var snapshot = records[key]?.tasks[task] else { return [] }
        snapshot.state = .completed
        snapshot.failure = failure
        records[key]?.tasks[task] = snapshot
        records[key]?.started[task] = nil
        var actions: [BackgroundSessionAction] = []
        // A partial file the task held and did not hand on in its resume data is nobody's now.
        if let kept = records[key]?.resumeData?.removeValue(forKey: task), kept != failure?.resumeData {
            actions.append(.removePartialFile(bundleIdentifier: key.bundleIdentifier, resumeData: kept))
        }
        actions += deliver(.completed(snapshot), key: key)
        if attachments[key] != nil {
            // A handed-over file's task stays until didFinishDownloadingTo returns.
            if awaitsFileHandled(task: task, key: key) {
                records[key]?.unacknowledged?.append(.completed(snapshot))
            } else {
                records[key]?.tasks[task] = nil
            }
        }
        // A finishing session ends with its last task, once its process has had the completion.
        if let record = records[key], record.isFinishing, record.tasks.isEmpty { return actions + end(key) }
        return actions + [.persist(key, records[key])]
    }

    /// Sends an event to the session's process, or keeps it; a kept completion may launch the app.
    mutating func deliver(_ event: BackgroundSessionEvent, key: BackgroundSessionKey) -> [BackgroundSessionAction] {
        if let connection = attachments[key] { return [.send(connection: connection, key, event)] }
        guard var record = records[key] else { return [] }
        record.waiting.append(event)
        var actions: [BackgroundSessionAction] = []
        if let name = event.delegateCall {
            actions.append(.trace(key, task: event.taskIdentifier, event: name, detail: "kept until the app makes the session again",
                                  from: "backgroundassetsd", to: "nobody"))
        }
        records[key] = record
        guard case .completed = event else { return actions }
        return actions + launchIfDue(key)
    }

    /// Launches the app for a session whose completions wait, once every task of the session is
    /// complete (as Apple does, not at each one), when the session asks for launch events and no
    /// process of the app runs.
    mutating func launchIfDue(_ key: BackgroundSessionKey) -> [BackgroundSessionAction] {
        guard let record = records[key], !record.launchedForEvents, attachments[key] == nil,
              record.waiting.contains(where: { if case .completed = $0 { true } else { false } }),
              !record.tasks.values.contains(where: { $0.state == .running || $0.state == .canceling }),
              BackgroundSessionPolicy.launchesApp(for: record.settings, isAttached: false,
                                                  isRunning: runningApps.contains(key.bundleIdentifier),
                                                  wasForceQuit: forceQuitApps.contains(key.bundleIdentifier))
        else { return [] }
        records[key]?.launchedForEvents = true
        return [.launchApp(bundleIdentifier: key.bundleIdentifier, session: key.sessionIdentifier)]
    }
}
