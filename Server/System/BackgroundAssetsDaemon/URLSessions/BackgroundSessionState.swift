/*
Abstract:
Every app's background sessions: a value the service owns, that turns each happening into the actions to perform.
*/

import BackgroundAssetsIPC
import Foundation

/// The background sessions of every app, and the rules that order what happens to them.
///
/// A value the host owns and tests drive directly, like ``AssetPackState``: no I/O and no clock
/// (the caller passes the time). Each method takes what happened and returns the
/// ``BackgroundSessionAction``s to perform. A session's events go to the connection that has it,
/// or wait in its record (which the host persists) for the next one; a completion that waits
/// launches the app when the session asks for launch events and no process of the app runs.
public struct BackgroundSessionState: Sendable {
    var records: [BackgroundSessionKey: BackgroundSessionRecord] = [:]
    var attachments: [BackgroundSessionKey: UInt64] = [:]
    /// Apps a person force-quit since they last made a session: the system does not launch them.
    var forceQuitApps: Set<String> = []
    /// Apps with a process connected to the service: they are not launched, they are running.
    public var runningApps: Set<String> = []

    /// Creates the state from the records the store kept.
    public init(records: [BackgroundSessionRecord] = []) {
        for record in records { self.records[record.key] = record }
    }

    /// A session's record, if the app has made it.
    public func record(_ key: BackgroundSessionKey) -> BackgroundSessionRecord? { records[key] }

    /// Every session, ordered by app and identifier.
    public var sessions: [BackgroundSessionRecord] { records.values.sorted { $0.key < $1.key } }

    // MARK: - The app's requests

    /// A process makes the session: it gets the outstanding tasks and the waiting events.
    public mutating func attach(_ settings: BackgroundSessionSettings, app: String, connection: UInt64) -> [BackgroundSessionAction] {
        let key = BackgroundSessionKey(bundleIdentifier: app, sessionIdentifier: settings.identifier)
        var record = records[key] ?? BackgroundSessionRecord(key: key, settings: settings)
        record.settings = settings
        // A session made again after finishTasksAndInvalidate() is a new session.
        record.isFinishing = false
        forceQuitApps.remove(app)
        var actions: [BackgroundSessionAction] = []
        if let previous = attachments[key], previous != connection { actions.append(.finishStream(connection: previous, key)) }
        attachments[key] = connection
        let outstanding = record.tasks.values.sorted { $0.taskIdentifier < $1.taskIdentifier }
        // A task that ended while no process had the session is listed as running: the process
        // learns of its end from the completion that follows, as the delegate must.
        let listed = outstanding.map { task in
            var task = task
            if task.state == .completed { (task.state, task.failure) = (.running, nil) }
            return task
        }
        actions.append(.send(connection: connection, key, .attached(tasks: listed)))
        actions += record.waiting.map { .send(connection: connection, key, $0) }
        if record.launchedForEvents { actions.append(.send(connection: connection, key, .waitingEventsDelivered)) }
        // Files now sent count as delivered once their didFinishDownloadingTo returns.
        let files = Set(record.waiting.compactMap { if case let .finishedDownloading(task, _, _) = $0 { task } else { nil } })
        let sent = record.waiting.filter {
            switch $0 {
            case let .finishedDownloading(task, _, _): files.contains(task)
            case let .completed(snapshot): files.contains(snapshot.taskIdentifier)
            default: false
            }
        }
        record.unacknowledged = sent.isEmpty ? record.unacknowledged : (record.unacknowledged ?? []) + sent
        record.waiting = []
        record.launchedForEvents = false
        // Completions now delivered end their tasks; a file's task ends when its method returns.
        for task in outstanding where task.state == .completed && !files.contains(task.taskIdentifier) {
            record.tasks[task.taskIdentifier] = nil
        }
        records[key] = record
        return actions + [.persist(key, record), .trace(key, task: nil, event: "attachURLSession", detail: "\(outstanding.count) outstanding task(s)")]
    }

    /// The app makes a download or upload task; it is suspended until resumed.
    /// - Parameter bodyLength: The length of an upload's file.
    public mutating func makeTask(_ request: BackgroundTaskRequest, key: BackgroundSessionKey, bodyLength: Int64? = nil)
        -> (BackgroundTaskSnapshot, [BackgroundSessionAction])?
    {
        guard var record = records[key], !record.isFinishing else { return nil }
        var snapshot = BackgroundTaskSnapshot(taskIdentifier: record.nextTaskIdentifier, request: request)
        if request.isUpload {
            snapshot.countOfBytesSent = 0
            snapshot.countOfBytesExpectedToSend = bodyLength ?? 0
        }
        record.nextTaskIdentifier += 1
        record.tasks[snapshot.taskIdentifier] = snapshot
        records[key] = record
        return (snapshot, [.persist(key, record)])
    }

    /// The app makes a task that continues from resume data; its transfer takes the partial file
    /// over when the task is resumed.
    public mutating func makeTask(resuming resumeData: BackgroundResumeData, key: BackgroundSessionKey)
        -> (BackgroundTaskSnapshot, [BackgroundSessionAction])?
    {
        guard let made = makeTask(resumeData.request, key: key) else { return nil }
        var snapshot = made.0
        snapshot.countOfBytesReceived = resumeData.bytesReceived
        records[key]?.tasks[snapshot.taskIdentifier] = snapshot
        setResumeData(resumeData.encoded(), task: snapshot.taskIdentifier, key: key)
        return (snapshot, [.persist(key, records[key])])
    }

    /// The app resumes a task: it joins the queue, not before its date, and on a discretionary
    /// session's conditions.
    public mutating func resume(task: Int, key: BackgroundSessionKey, earliestBeginDate: Date?,
                                expectedBytes: Int64, now: Date) -> [BackgroundSessionAction] {
        guard var record = records[key], var snapshot = record.tasks[task], snapshot.state == .suspended else { return [] }
        snapshot.state = .running
        snapshot.earliestBeginDate = earliestBeginDate
        snapshot.countOfBytesClientExpectsToReceive = expectedBytes
        record.tasks[task] = snapshot
        if record.started[task] == nil { record.started[task] = now }
        // The transfer takes the partial file over: the record no longer names it.
        let resumingFrom = record.resumeData?.removeValue(forKey: task)
        records[key] = record
        return [
            .scheduleTransfer(key, task: task, request: snapshot.currentRequest, notBefore: earliestBeginDate,
                              discretionary: record.settings.isDiscretionary, resumingFrom: resumingFrom),
            .persist(key, record),
            .trace(key, task: task, event: "resumeTask", detail: resumingFrom == nil ? nil : "from resume data"),
        ]
    }

    /// The app suspends a running task; the host keeps its partial file and answers with
    /// ``suspended(task:key:resumeData:)``.
    public mutating func suspend(task: Int, key: BackgroundSessionKey) -> [BackgroundSessionAction] {
        guard records[key]?.tasks[task]?.state == .running else { return [] }
        records[key]?.tasks[task]?.state = .suspended
        return [.pauseTransfer(key, task: task), .persist(key, records[key]), .trace(key, task: task, event: "suspendTask", detail: nil)]
    }

    /// A suspended task's partial file is kept: resuming the task continues from it.
    public mutating func suspended(task: Int, key: BackgroundSessionKey, resumeData: Data?) -> [BackgroundSessionAction] {
        guard let resumeData, records[key]?.tasks[task]?.state == .suspended else {
            return resumeData.map { [.removePartialFile(bundleIdentifier: key.bundleIdentifier, resumeData: $0)] } ?? []
        }
        setResumeData(resumeData, task: task, key: key)
        return [.persist(key, records[key])]
    }

    /// The app cancels a task; with `keepingPartialFile`, the host answers with the resume data
    /// through ``cancelledKeepingPartialFile(task:key:resumeData:)``.
    public mutating func cancel(task: Int, key: BackgroundSessionKey, keepingPartialFile: Bool) -> [BackgroundSessionAction] {
        guard let state = records[key]?.tasks[task]?.state, state == .running || state == .suspended else { return [] }
        records[key]?.tasks[task]?.state = .canceling
        let cancel = BackgroundSessionAction.cancelTransfer(key, task: task, keepPartialFile: keepingPartialFile)
        return keepingPartialFile ? [cancel] : [cancel] + complete(task: task, key: key, failure: .cancelled())
    }

    /// The host kept a cancelled task's partial file, or found none: the task completes, with its
    /// resume data when there is some.
    public mutating func cancelledKeepingPartialFile(task: Int, key: BackgroundSessionKey, resumeData: Data?)
        -> [BackgroundSessionAction]
    {
        complete(task: task, key: key, failure: .cancelled(resumeData: resumeData))
    }

    private mutating func setResumeData(_ data: Data, task: Int, key: BackgroundSessionKey) {
        var held = records[key]?.resumeData ?? [:]
        held[task] = data
        records[key]?.resumeData = held
    }

    /// The resume data a task holds until its transfer starts, if any (a task made from resume data
    /// and not yet resumed, or suspended).
    public func resumeData(task: Int, key: BackgroundSessionKey) -> Data? {
        records[key]?.resumeData?[task]
    }

    /// The app records a task's description.
    public mutating func describe(task: Int, key: BackgroundSessionKey, _ text: String?) -> [BackgroundSessionAction] {
        guard records[key]?.tasks[task] != nil else { return [] }
        records[key]?.tasks[task]?.taskDescription = text
        return [.persist(key, records[key])]
    }

    /// The app invalidates the session, cancelling its tasks or letting them finish first.
    public mutating func invalidate(key: BackgroundSessionKey, cancellingTasks: Bool) -> [BackgroundSessionAction] {
        guard var record = records[key] else { return [] }
        guard cancellingTasks else {
            record.isFinishing = true
            records[key] = record
            return record.tasks.isEmpty ? end(key) : [.persist(key, record), .trace(key, task: nil, event: "finishTasksAndInvalidate", detail: nil)]
        }
        var actions: [BackgroundSessionAction] = []
        for task in record.tasks.keys.sorted() { actions += cancel(task: task, key: key, keepingPartialFile: false) }
        return actions + end(key)
    }

    /// The app was uninstalled: its sessions go, without events.
    public mutating func removeApp(_ app: String) -> [BackgroundSessionAction] {
        let keys = records.keys.filter { $0.bundleIdentifier == app }.sorted()
        forceQuitApps.remove(app)
        runningApps.remove(app)
        for key in keys {
            records[key] = nil
            attachments[key] = nil
        }
        return keys.map { .persist($0, nil) }
    }

    mutating func end(_ key: BackgroundSessionKey) -> [BackgroundSessionAction] {
        let leftovers = records[key]?.resumeData?.values.sorted { $0.count < $1.count } ?? []
        records[key] = nil
        let connection = attachments.removeValue(forKey: key)
        return leftovers.map { .removePartialFile(bundleIdentifier: key.bundleIdentifier, resumeData: $0) }
            + (connection.map { [.finishStream(connection: $0, key)] } ?? [])
            + [.persist(key, nil), .trace(key, task: nil, event: "invalidateURLSession", detail: nil)]
    }
}
