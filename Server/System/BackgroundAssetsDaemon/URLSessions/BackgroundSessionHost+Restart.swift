/*
Abstract:
What the background-session host finds when the service starts: its records against the queue's rows and the files on disk.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundSessionHost {
    /// Loads the sessions' records. The service does it before its queue starts: a transfer the
    /// queue resumes can end at once, and its end must find its task.
    func load(isolation: isolated (any Actor)? = #isolation) async {
        do {
            let (records, unreadable) = try await store.all()
            for key in unreadable {
                logger.error("The background session \(key.sessionIdentifier) of \(key.bundleIdentifier) could not be read (written by a later version?); it is left as it is.")
            }
            state = BackgroundSessionState(records: records)
        } catch {
            logger.error("The background sessions could not be read: \(error). They start empty until the next start.")
        }
    }

    /// Settles each running task with its transfer in the queue, then removes the files nobody will
    /// be given.
    ///
    /// A service that stopped (or was killed) between the queue's record of a transfer's end and the
    /// session's record of it finds the task running here and its row ended: a finished row whose
    /// file is in the session's folder is delivered, a failed one fails the task, and a task with no
    /// transfer (waiting for the device, or never queued) is scheduled again. A transfer still in the
    /// queue resumes there, from its bytes on disk.
    ///
    /// The queue runs meanwhile, and each wait here lets its events in: a task is settled as the
    /// state has it when its turn comes (one that ended meanwhile is left alone), and the leftovers
    /// are swept in one turn, after every wait, keeping every file an event names by then
    /// (``BackgroundSessionState/filesNamedByEvents(of:)``).
    func start(isolation: isolated (any Actor)? = #isolation) async {
        files.removePartialFiles(olderThan: Self.partialFileLifetime, now: now)
        let latest = await latestRows()
        let staging = StagingArea(paths: files.paths)
        // Every task, whatever its state: each is looked up again when its turn comes.
        let tasks = state.sessions.flatMap { record in
            record.tasks.keys.sorted().map { TaskReference(key: record.key, task: $0) }
        }
        for reference in tasks {
            guard let snapshot = state.record(reference.key)?.tasks[reference.task] else { continue }
            switch snapshot.state {
            case .running:
                await settle(reference, snapshot: snapshot, row: latest[reference], staging: staging)
            case .canceling:
                // Cancelled while the service stopped: the partial file is gone with its transfer.
                await perform(state.cancelledKeepingPartialFile(task: reference.task, key: reference.key, resumeData: nil))
            case .suspended, .completed:
                continue
            }
        }
        for record in state.sessions {
            files.removeLeftovers(for: record.key.bundleIdentifier, appGroup: record.settings.sharedContainerIdentifier,
                                  keeping: state.filesNamedByEvents(of: record.key))
        }
        // Copies of uploads whose task ended while the service stopped, or was let go before its
        // cancellation ran, are nobody's.
        for app in files.appsWithUploadBodies() { removeUnreferencedUploadBodies(of: app) }
        scheduleExpiry()
    }

    private func settle(_ reference: TaskReference, snapshot: BackgroundTaskSnapshot, row: DownloadRow?, staging: StagingArea,
                        isolation: isolated (any Actor)? = #isolation) async {
        let (key, task) = (reference.key, reference.task)
        switch row?.state {
        case .waiting?, .downloading?, .created?:
            rows[reference] = row?.id
        case .finished?:
            guard let row, let file = staging.handedOverFile(of: row) else { return await reschedule(reference, snapshot) }
            await perform(state.transferFinished(task: task, key: key, file: file, response: Self.response(of: row)))
        case .failed?:
            let failure = row?.lastError ?? WireFailure(domain: WireFailure.urlDomain, code: -1, message: "The download failed.")
            await perform(state.transferFailed(task: task, key: key, failure: BackgroundTaskFailure(error: failure)))
        case nil:
            await reschedule(reference, snapshot)
        }
    }

    private func reschedule(_ reference: TaskReference, _ snapshot: BackgroundTaskSnapshot,
                            isolation: isolated (any Actor)? = #isolation) async {
        let discretionary = state.record(reference.key)?.settings.isDiscretionary ?? false
        await schedule(reference, WaitingTransfer(request: snapshot.currentRequest, notBefore: snapshot.earliestBeginDate,
                                                  discretionary: discretionary, resumingFrom: nil, reason: ""))
    }

    /// The newest queue row of each background session's task.
    private func latestRows(isolation: isolated (any Actor)? = #isolation) async -> [TaskReference: DownloadRow] {
        let all = (try? await reader.read { try $0.allDownloads() }) ?? []
        var latest: [TaskReference: DownloadRow] = [:]
        for row in all {
            guard let reference = Self.reference(of: row) else { continue }
            if let known = latest[reference], known.id > row.id { continue }
            latest[reference] = row
        }
        return latest
    }
}
