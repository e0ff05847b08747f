/*
Abstract:
Doing what the background-session state asks: transfers in the queue, partial files kept, events sent, records written.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundSessionHost {
    /// Does each action in order; an action that needs the state again (a kept partial file) adds its own.
    func perform(_ actions: [BackgroundSessionAction], isolation: isolated (any Actor)? = #isolation) async {
        for action in actions {
            switch action {
            case let .scheduleTransfer(key, task, request, notBefore, discretionary, resumingFrom):
                let transfer = WaitingTransfer(request: request, notBefore: notBefore, discretionary: discretionary,
                                               resumingFrom: resumingFrom, reason: "")
                await schedule(TaskReference(key: key, task: task), transfer)
            case let .pauseTransfer(key, task):
                let reference = TaskReference(key: key, task: task)
                await perform(state.suspended(task: task, key: key, resumeData: await stopKeepingBytes(reference)))
            case let .cancelTransfer(key, task, keepPartialFile):
                let reference = TaskReference(key: key, task: task)
                if keepPartialFile {
                    let resumeData = await stopKeepingBytes(reference)
                    producedResumeData[reference] = resumeData
                    await perform(state.cancelledKeepingPartialFile(task: task, key: key, resumeData: resumeData))
                } else {
                    await stopDiscardingBytes(reference)
                }
            case let .send(connection, key, event):
                guard let client = connections[connection] else { continue }
                client.send(.event(.urlSessionEvent(session: key.sessionIdentifier, event: event)))
                // A process that has ended refuses the write, though the service may not have seen its
                // connection close yet (it waits behind a request in flight): the event is kept for the next.
                guard client.isOpen else {
                    undelivered[connection, default: [:]][key, default: []].append(event)
                    continue
                }
                if let name = event.delegateCall { trace(name, key: key, task: event.taskIdentifier, to: "app", detail: event.traceDetail) }
            case let .finishStream(connection, key):
                connections[connection]?.send(.event(.urlSessionDetached(session: key.sessionIdentifier)))
            case let .launchApp(app, session):
                launchedForEvents[app, default: []].insert(session)
                if handlingLimits[app] == nil {
                    handlingLimits[app] = activities.afterIsolated(Self.eventsHandlingLimit, "events of \(app)'s background sessions") {
                        [weak self] in await self?.eventsHandlingOverran(app: app)
                    }
                }
                notify(.launchApp(app: app, session: session))
            case let .endBackgroundLaunchIfIdle(app):
                notify(.endBackgroundLaunchIfIdle(app: app))
            case let .removeFile(file):
                unlink(file.path)
            case let .removePartialFile(app, resumeData):
                files.removePartialFile(of: resumeData, for: app)
            case let .persist(key, record):
                do {
                    try await store.save(key, record)
                } catch {
                    logger.error("The background session \(key.sessionIdentifier) of \(key.bundleIdentifier) could not be saved: \(error). It is kept in memory until the next change.")
                }
            case let .trace(key, task, event, detail, from, to):
                trace(event, key: key, task: task, from: from, to: to, detail: detail)
            }
        }
    }

    // MARK: - Transfers

    /// Puts a resumed task's transfer in the queue, or keeps it waiting for the device's conditions.
    func schedule(_ reference: TaskReference, _ transfer: WaitingTransfer, isolation: isolated (any Actor)? = #isolation) async {
        guard let snapshot = state.record(reference.key)?.tasks[reference.task], snapshot.state == .running else { return }
        let settings = BackgroundSessionSettings(identifier: reference.key.sessionIdentifier, isDiscretionary: transfer.discretionary)
        if case let .waiting(reason) = BackgroundSessionPolicy.eligibility(of: snapshot, settings: settings, device: self.settings, now: now) {
            var waiting = transfer
            waiting.reason = reason
            self.waiting[reference] = waiting
            trace("transferWaits", key: reference.key, task: reference.task, to: "backgroundassetsd", detail: reason)
            return
        }
        waiting[reference] = nil
        if transfer.request.isUpload {
            return startUpload(reference, request: transfer.request, notBefore: transfer.notBefore)
        }
        let group = state.record(reference.key)?.settings.sharedContainerIdentifier ?? ""
        let download = NewDownload(bundleIdentifier: reference.key.bundleIdentifier, descriptor: DownloadDescriptor(
            identifier: BackgroundSessionPolicy.queueIdentifier(for: reference.key, task: reference.task),
            uniqueIdentifier: UUID.random().uuidString, kind: .backgroundSession, url: transfer.request.url.absoluteString,
            headers: transfer.request.headers, applicationGroupIdentifier: group))
        do {
            let partial = transfer.resumingFrom.flatMap { partialFile(of: $0, app: reference.key.bundleIdentifier) }
            let row = try await queue.enqueue(download, notBefore: transfer.notBefore, continuingFrom: partial)
            rows[reference] = row.id
        } catch {
            logger.error("The transfer of task \(reference.task) of \(reference.key.sessionIdentifier) could not be queued: \(error).")
            let failure = WireFailure(domain: WireFailure.urlDomain, code: -1, message: "The system could not start the download: \(error).")
            await perform(state.transferFailed(task: reference.task, key: reference.key, failure: BackgroundTaskFailure(error: failure)))
        }
    }

    /// The device settings changed: transfers that waited for them and may run now join the queue.
    func settingsChanged(_ settings: DeviceSettings, isolation: isolated (any Actor)? = #isolation) async {
        self.settings = settings
        for (reference, transfer) in waiting.sorted(by: { ($0.key.key, $0.key.task) < ($1.key.key, $1.key.task) }) {
            await schedule(reference, transfer)
        }
    }

    /// Stops a task's transfer and keeps its bytes for resume data: the bytes the queue had, or the
    /// partial file the task was to continue from.
    /// - Returns: The resume data, or `nil` when there are no bytes to continue from.
    func stopKeepingBytes(_ reference: TaskReference, isolation: isolated (any Actor)? = #isolation) async -> Data? {
        let app = reference.key.bundleIdentifier
        guard let request = state.record(reference.key)?.tasks[reference.task]?.currentRequest else { return nil }
        if let held = waiting.removeValue(forKey: reference)?.resumingFrom ?? state.resumeData(task: reference.task, key: reference.key) {
            return held
        }
        // An upload keeps its file, not its bytes sent: resuming it sends the file again.
        if request.isUpload { cancelUpload(reference, removingBody: false); return nil }
        guard let rowID = rows.removeValue(forKey: reference), let (name, destination) = files.newPartialFile(for: app) else { return nil }
        do {
            guard let kept = try await queue.cancelKeepingPartialFile(id: rowID, movingTo: destination) else { return nil }
            return BackgroundResumeData(
                sessionIdentifier: reference.key.sessionIdentifier, request: request, bytesReceived: kept.bytes,
                entityTag: kept.entityTag ?? kept.lastModified, partialFileName: name).encoded()
        } catch {
            logger.error("The partial file of task \(reference.task) of \(reference.key.sessionIdentifier) could not be kept: \(error).")
            return nil
        }
    }

    /// Stops a task's transfer and deletes its bytes.
    func stopDiscardingBytes(_ reference: TaskReference, isolation: isolated (any Actor)? = #isolation) async {
        cancelUpload(reference, removingBody: true)
        if let held = waiting.removeValue(forKey: reference)?.resumingFrom {
            files.removePartialFile(of: held, for: reference.key.bundleIdentifier)
        }
        guard let rowID = rows.removeValue(forKey: reference) else { return }
        try? await queue.cancel(id: rowID)
    }

    /// The kept partial file resume data names, and what the queue needs to continue after it.
    private func partialFile(of data: Data, app: String) -> (file: URL, kept: KeptPartialFile)? {
        guard let resumeData = try? BackgroundResumeData(decoding: data),
              let file = files.partialFile(named: resumeData.partialFileName, for: app) else { return nil }
        // Apple's resume data keeps one validator; a strong entity tag is quoted, a date is not.
        let tag = resumeData.entityTag
        let isEntityTag = tag?.hasPrefix("\"") == true
        return (file, KeptPartialFile(bytes: resumeData.bytesReceived, entityTag: isEntityTag ? tag : nil,
                                      lastModified: isEntityTag ? nil : tag))
    }

    // MARK: - Timers

    /// Sets the timer for the next running task to pass its resource timeout.
    func scheduleExpiry(isolation: isolated (any Actor)? = #isolation) {
        expiryTimer?.cancel()
        guard let next = state.nextExpiry else { return }
        let now = now
        let due = min(max(next, now).addingTimeInterval(0.001), now.addingTimeInterval(3600))
        expiryTimer = activities.atIsolated(due, "background-session resource timeouts") {
            [weak self] in await self?.expire()
        }
    }

    /// Fails the tasks past their resource timeout, then sets the timer for the next.
    func expire(isolation: isolated (any Actor)? = #isolation) async {
        await perform(state.expireTasks(now: now))
        scheduleExpiry()
    }

    /// A relaunched app did not call its completion handler in time: its launch is let go.
    func eventsHandlingOverran(app: String, isolation: isolated (any Actor)? = #isolation) async {
        handlingLimits[app] = nil
        guard let sessions = launchedForEvents.removeValue(forKey: app) else { return }
        for session in sessions.sorted() {
            trace("completionHandlerNotCalled", key: BackgroundSessionKey(bundleIdentifier: app, sessionIdentifier: session),
                  task: nil, to: "app", detail: "not called within \(Self.eventsHandlingLimit); the background launch ends")
        }
        notify(.endBackgroundLaunchIfIdle(app: app))
    }

    /// The service could not launch the app for a session's events.
    func launchFailed(app: String, session: String) {
        state.launchFailed(key: BackgroundSessionKey(bundleIdentifier: app, sessionIdentifier: session))
        launchedForEvents[app]?.remove(session)
        if launchedForEvents[app]?.isEmpty == true {
            launchedForEvents[app] = nil
            handlingLimits.removeValue(forKey: app)?.cancel()
        }
    }
}

extension BackgroundSessionHost {
    /// The app's background launch ended (it exited, or was ended): nothing waits for its handlers.
    func backgroundLaunchEnded(app: String) {
        launchedForEvents[app] = nil
        handlingLimits.removeValue(forKey: app)?.cancel()
    }
}
