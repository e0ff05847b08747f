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
        guard records[key]?.tasks[task] != nil else { return [] }
        return deliver(.resumed(taskIdentifier: task, offset: offset, expectedTotalBytes: expected), key: key)
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

    /// A transfer finished: its file goes into the app's container first.
    public mutating func transferFinished(task: Int, key: BackgroundSessionKey, file: URL, response: BackgroundTaskResponse)
        -> [BackgroundSessionAction]
    {
        guard records[key]?.tasks[task] != nil else { return [.removeFile(file)] }
        records[key]?.tasks[task]?.response = response
        return [.handOver(key, task: task, file: file, response: response)]
    }

    /// The file is in the app's container: the app receives it, then the task's completion.
    public mutating func handedOver(task: Int, key: BackgroundSessionKey, file: URL, response: BackgroundTaskResponse)
        -> [BackgroundSessionAction]
    {
        deliver(.finishedDownloading(taskIdentifier: task, file: file, response: response), key: key)
            + complete(task: task, key: key, failure: nil)
    }

    /// A transfer failed for good (after the queue's retries), or ran past its resource timeout.
    public mutating func transferFailed(task: Int, key: BackgroundSessionKey, failure: BackgroundTaskFailure)
        -> [BackgroundSessionAction]
    {
        complete(task: task, key: key, failure: failure)
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

    /// A person force-quit the app: its transfers are cancelled with Apple's reason, and the app is
    /// not launched for them; it hears of them when it next makes the session.
    public mutating func forceQuit(app: String) -> [BackgroundSessionAction] {
        forceQuitApps.insert(app)
        var actions: [BackgroundSessionAction] = []
        for key in records.keys.sorted() where key.bundleIdentifier == app {
            for task in (records[key]?.tasks.keys.sorted() ?? []) where records[key]?.tasks[task]?.state != .completed {
                actions.append(.cancelTransfer(key, task: task, keepPartialFile: false))
                actions += complete(task: task, key: key, failure: .cancelled(reason: .userForceQuitApplication))
            }
        }
        return actions
    }

    /// A connection closed: its sessions' events wait from now on.
    public mutating func connectionClosed(_ connection: UInt64) {
        attachments = attachments.filter { $0.value != connection }
    }

    /// The app called the completion handler of the relaunch for a session's events.
    public func eventsHandled(key: BackgroundSessionKey) -> [BackgroundSessionAction] {
        [.endBackgroundLaunchIfIdle(bundleIdentifier: key.bundleIdentifier), .trace(key, task: nil, "events handled")]
    }

    /// Whether a process of the app has the session.
    public func isAttached(_ key: BackgroundSessionKey) -> Bool { attachments[key] != nil }

    /// The identifiers of the app's sessions whose events wait, the ones it was launched for first.
    public func sessionsAwaitingEvents(app: String) -> [String] {
        records.values.filter { $0.key.bundleIdentifier == app && !$0.waiting.isEmpty }
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
        let outcome = failure.map { "failed: \($0.error.message)" } ?? "finished"
        var actions = deliver(.completed(snapshot), key: key) + [.trace(key, task: task, outcome)]
        if attachments[key] != nil { records[key]?.tasks[task] = nil }
        // A finishing session ends with its last task, once its process has had the completion.
        if let record = records[key], record.isFinishing, record.tasks.isEmpty { actions += end(key) }
        return actions + [.persist(key, records[key])]
    }

    /// Sends an event to the session's process, or keeps it; a kept completion may launch the app.
    mutating func deliver(_ event: BackgroundSessionEvent, key: BackgroundSessionKey, isLaunchable: Bool = true)
        -> [BackgroundSessionAction]
    {
        if let connection = attachments[key] { return [.send(connection: connection, key, event)] }
        guard var record = records[key] else { return [] }
        record.waiting.append(event)
        var actions: [BackgroundSessionAction] = []
        if case .completed = event, !record.launchedForEvents,
           BackgroundSessionPolicy.launchesApp(for: record.settings, isAttached: false, isLaunchable: isLaunchable,
                                               wasForceQuit: forceQuitApps.contains(key.bundleIdentifier)) {
            record.launchedForEvents = true
            actions.append(.launchApp(bundleIdentifier: key.bundleIdentifier, session: key.sessionIdentifier))
        }
        records[key] = record
        return actions
    }
}
