/*
Abstract:
A handed-over file counts as delivered once didFinishDownloadingTo returns; a process that ends before then leaves it, and its task's completion, to the next.
*/

import BackgroundAssetsIPC
import Foundation

extension BackgroundSessionState {
    /// The app's `didFinishDownloadingTo` returned: the file is its business no more, and the
    /// task, already completed, leaves the session.
    public mutating func fileHandled(task: Int, key: BackgroundSessionKey) -> [BackgroundSessionAction] {
        guard awaitsFileHandled(task: task, key: key) else { return [] }
        records[key]?.unacknowledged?.removeAll { $0.taskIdentifier == task }
        if records[key]?.unacknowledged?.isEmpty == true { records[key]?.unacknowledged = nil }
        if records[key]?.tasks[task]?.state == .completed { records[key]?.tasks[task] = nil }
        if let record = records[key], record.isFinishing, record.tasks.isEmpty { return end(key) }
        return [.persist(key, records[key])]
    }

    /// A connection closed: its sessions' events wait from now on, and a file it was sent whose
    /// `didFinishDownloadingTo` never returned waits again with its task's completion (the file only
    /// if it is still there: a process may have moved it and ended before saying so). A waiting
    /// completion may launch the app, so the app whose process ended should no longer be running.
    /// - Parameters:
    ///   - connection: The connection that closed.
    ///   - fileExists: Whether a handed-over file is still where it was sent.
    public mutating func connectionClosed(_ connection: UInt64, undelivered: [BackgroundSessionKey: [BackgroundSessionEvent]] = [:],
                                          fileExists: (URL) -> Bool) -> [BackgroundSessionAction] {
        let keys = attachments.filter { $0.value == connection }.keys.sorted()
        var actions: [BackgroundSessionAction] = []
        for key in keys {
            attachments[key] = nil
            let lost = keptAgain(undelivered[key] ?? [], key: key)
            let sent = records[key]?.unacknowledged ?? []
            guard !sent.isEmpty || !lost.isEmpty else { continue }
            let again = sent.filter {
                if case let .finishedDownloading(_, file, _) = $0 { fileExists(file) } else { true }
            }
            records[key]?.unacknowledged = nil
            records[key]?.waiting.insert(contentsOf: again + lost, at: 0)
            for event in again {
                guard case .finishedDownloading = event, let name = event.delegateCall else { continue }
                actions.append(.trace(key, task: event.taskIdentifier, event: name,
                                      detail: "kept until the app makes the session again: its process ended before the method returned",
                                      from: "backgroundassetsd", to: "nobody"))
            }
            for event in lost {
                guard let name = event.delegateCall else { continue }
                actions.append(.trace(key, task: event.taskIdentifier, event: name,
                                      detail: "kept until the app makes the session again: its process had ended when it was sent",
                                      from: "backgroundassetsd", to: "nobody"))
            }
            actions += launchIfDue(key) + [.persist(key, records[key])]
        }
        return actions
    }

    /// The events a process that had ended was sent, to send again: the task of a completion among
    /// them is the session's again, as when it completed with no process. Progress is not kept (the
    /// next process reads the counts), and a file and completion still unacknowledged wait already.
    private mutating func keptAgain(_ events: [BackgroundSessionEvent], key: BackgroundSessionKey) -> [BackgroundSessionEvent] {
        guard records[key] != nil else { return [] }
        return events.filter { event in
            switch event {
            case .attached, .resumed, .wroteData, .sentBodyData, .challenge, .waitingEventsDelivered:
                return false
            case .finishedDownloading, .updated, .receivedData:
                return !awaitsFileHandled(task: event.taskIdentifier ?? 0, key: key)
            case let .completed(snapshot):
                guard !awaitsFileHandled(task: snapshot.taskIdentifier, key: key) else { return false }
                if records[key]?.tasks[snapshot.taskIdentifier] == nil { records[key]?.tasks[snapshot.taskIdentifier] = snapshot }
                return true
            }
        }
    }

    /// Whether a file handed over for the task waits for `didFinishDownloadingTo` to return.
    func awaitsFileHandled(task: Int, key: BackgroundSessionKey) -> Bool {
        records[key]?.unacknowledged?.contains {
            if case .finishedDownloading = $0 { $0.taskIdentifier == task } else { false }
        } == true
    }
}
