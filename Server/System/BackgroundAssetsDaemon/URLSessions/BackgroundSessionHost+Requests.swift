/*
Abstract:
What an app asks of its background sessions: making one, its tasks and their changes, its events, its end.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundSessionHost {
    /// Makes `connection` the one that has the app's session; its tasks and waiting events follow.
    /// - Parameters:
    ///   - appGroups: The app groups of the installed app, or `nil` for an app that is not installed.
    ///   - isExtension: Whether the caller is the app's extension, which must name a shared container.
    /// - Throws: ``Refusal`` for settings no session can have, or an app group that is not the app's.
    func attach(_ settings: BackgroundSessionSettings, app: String, connection: ClientConnection, appGroups: [String]?,
                isExtension: Bool, isolation: isolated (any Actor)? = #isolation) async throws(Refusal) {
        if let refusal = settings.refusal { throw Refusal(message: refusal) }
        if let group = settings.sharedContainerIdentifier {
            guard DevicePaths.isSafePathComponent(group), appGroups?.contains(group) ?? true else {
                let groups = appGroups.map { $0.map { "\"\($0)\"" }.joined(separator: ", ") } ?? ""
                throw Refusal(message: "The session \(settings.identifier) names the app group \"\(group)\" in sharedContainerIdentifier, "
                    + "which \(app) is not in; use one of its groups (\(groups)) or none.")
            }
        } else if isExtension {
            throw Refusal(message: "A background session made in an app extension needs sharedContainerIdentifier: set it to "
                + "the app group the extension shares with its app, where the system hands the files over.")
        }
        connections[connection.id] = connection
        await perform(state.attach(settings, app: app, connection: connection.id))
    }

    /// Records a new, suspended download or upload task; an upload's file is copied now.
    /// - Parameter appGroups: The app groups of the installed app, whose containers it may upload from.
    /// - Throws: ``Refusal`` when the request cannot be transferred, its file cannot be read, or the
    ///   session is not this connection's.
    func makeTask(_ request: BackgroundTaskRequest, session: String, app: String, connection: UInt64, appGroups: [String] = [],
                  isolation: isolated (any Actor)? = #isolation) async throws(Refusal) -> BackgroundTaskSnapshot {
        if let refusal = request.refusal { throw Refusal(message: refusal) }
        let key = try attachedKey(session, app: app, connection: connection)
        let staged = try stageUploadBody(request, app: app, appGroups: appGroups)
        let length = staged.bodyFile.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int64 }
        guard let (snapshot, actions) = state.makeTask(staged, key: key, bodyLength: length) else {
            if let copy = staged.bodyFile { files.removeUploadBody(copy, for: app) }
            throw Self.invalidated(session)
        }
        await perform(actions)
        return snapshot
    }

    /// Records a suspended task that continues from resume data.
    /// - Throws: ``Refusal`` when the data does not decode, or names no partial file of this app.
    func makeTask(resumeData data: Data, session: String, app: String, connection: UInt64,
                  isolation: isolated (any Actor)? = #isolation) async throws(Refusal) -> BackgroundTaskSnapshot {
        let key = try attachedKey(session, app: app, connection: connection)
        var resumeData: BackgroundResumeData
        do {
            resumeData = try BackgroundResumeData(decoding: data)
        } catch {
            throw Refusal(message: error.description)
        }
        if let refusal = resumeData.request.refusal { throw Refusal(message: refusal) }
        var partial = stat()
        guard let file = files.partialFile(named: resumeData.partialFileName, for: app), lstat(file.path, &partial) == 0,
              (partial.st_mode & S_IFMT) == S_IFREG else {
            throw Refusal(message: "The resume data names a partial file the system no longer has (it was used already, or "
                + "kept longer than 7 days); start the download again with downloadTask(with:).")
        }
        // The data is the app's to keep and hand back, so its count is only a claim: the transfer
        // continues from the bytes the file holds, and the app's progress never starts past them.
        resumeData.bytesReceived = min(resumeData.bytesReceived, Int64(partial.st_size))
        guard let (snapshot, actions) = state.makeTask(resuming: resumeData, key: key) else { throw Self.invalidated(session) }
        await perform(actions)
        return snapshot
    }

    /// Resumes, suspends, cancels or describes a task.
    /// - Returns: The resume data of a cancellation that produces it, when the transfer can continue.
    func change(task: Int, session: String, command: BackgroundTaskCommand, app: String, connection: UInt64,
                isolation: isolated (any Actor)? = #isolation) async throws(Refusal) -> Data? {
        let key = try attachedKey(session, app: app, connection: connection)
        let reference = TaskReference(key: key, task: task)
        guard state.record(key)?.tasks[task] != nil else {
            throw Refusal(message: "The background session \(session) has no task \(task) that has not completed; "
                + "list its tasks with getAllTasks(completionHandler:).")
        }
        switch command {
        case let .resume(earliestBeginDate, expectedBytes):
            await perform(state.resume(task: task, key: key, earliestBeginDate: earliestBeginDate, expectedBytes: expectedBytes, now: now))
            scheduleExpiry()
        case .suspend:
            await perform(state.suspend(task: task, key: key))
        case .cancel:
            await perform(state.cancel(task: task, key: key, keepingPartialFile: false))
        case .cancelProducingResumeData:
            await perform(state.cancel(task: task, key: key, keepingPartialFile: true))
            return producedResumeData.removeValue(forKey: reference)
        case let .describe(text):
            await perform(state.describe(task: task, key: key, text))
        }
        return nil
    }

    /// The delegate returned from `didFinishDownloadingTo`: the file is the app's business no more.
    func fileHandled(task: Int, session: String, app: String, isolation: isolated (any Actor)? = #isolation) async {
        let key = BackgroundSessionKey(bundleIdentifier: app, sessionIdentifier: session)
        trace("didFinishDownloadingTo returned", key: key, task: task, from: "app", to: "backgroundassetsd")
        await perform(state.fileHandled(task: task, key: key))
    }

    /// The app's sessions whose events wait for it, those it was launched for first.
    func sessionsAwaitingEvents(app: String) -> [String] {
        state.sessionsAwaitingEvents(app: app)
    }

    /// The app called the completion handler of `handleEventsForBackgroundURLSession` for a session.
    func eventsHandled(session: String, app: String, isolation: isolated (any Actor)? = #isolation) async {
        trace("completionHandler", key: BackgroundSessionKey(bundleIdentifier: app, sessionIdentifier: session), task: nil,
              from: "app", to: "backgroundassetsd", detail: "urlSessionDidFinishEvents done")
        guard launchedForEvents[app]?.remove(session) != nil, launchedForEvents[app]?.isEmpty == true else { return }
        launchedForEvents[app] = nil
        handlingLimits.removeValue(forKey: app)?.cancel()
        notify(.endBackgroundLaunchIfIdle(app: app))
    }

    /// Invalidates a session, cancelling its tasks or once they have ended.
    func invalidate(session: String, cancellingTasks: Bool, app: String, connection: UInt64,
                    isolation: isolated (any Actor)? = #isolation) async throws(Refusal) {
        let key = try attachedKey(session, app: app, connection: connection)
        await perform(state.invalidate(key: key, cancellingTasks: cancellingTasks))
    }

    /// A person force-quit the app: its transfers are cancelled, and it is not launched for them.
    func forceQuit(app: String, isolation: isolated (any Actor)? = #isolation) async {
        launchedForEvents[app] = nil
        handlingLimits.removeValue(forKey: app)?.cancel()
        await perform(state.forceQuit(app: app))
    }

    /// The session of the app that this connection has.
    private func attachedKey(_ session: String, app: String, connection: UInt64) throws(Refusal) -> BackgroundSessionKey {
        let key = BackgroundSessionKey(bundleIdentifier: app, sessionIdentifier: session)
        guard state.attachments[key] == connection else {
            throw Refusal(message: "This process has no background session \(session.debugDescription) of \(app); make it with "
                + "URLSession(configuration: .background(withIdentifier:), delegate:delegateQueue:) first.")
        }
        return key
    }

    private static func invalidated(_ session: String) -> Refusal {
        Refusal(message: "Task created in a session that has been invalidated (\(session)); make a new session with the same identifier.")
    }
}
