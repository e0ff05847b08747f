/*
Abstract:
Foreground starts answered before their rows are inserted, and the rule every other request follows meanwhile.
*/

import BackgroundAssetsIPC

/// The new foreground downloads the service has answered for and the queue has not inserted yet.
///
/// An app's loop over its sessions (Apple's sample, and this one) waits for each
/// `startForegroundDownload` before it asks for the next, so an answer that waited for the queue's
/// thread to insert the row set the pace of the whole loop. A new foreground download is answered
/// once it has passed every check; its row is inserted a moment later, with the others answered
/// meanwhile, in one transaction with one look at the queue.
///
/// The invariant this type owns: **no request sees the queue without the foreground starts answered
/// before it.** A start of a download whose insert is still to come is answered as one already in
/// the foreground (``answered(app:identifier:)``); every other request that reads or changes
/// downloads first waits until the starts answered before it are inserted (``waitTarget``,
/// ``inserted(_:)``). Inserts run in the order their starts were answered, one batch at a time.
struct ForegroundStartInserts {
    private struct Key: Hashable {
        let app: String
        let identifier: String
    }

    /// Answered, waiting for the next batch, in the order answered.
    private var waiting: [NewDownload] = []
    /// Every start answered and not yet inserted: those waiting and those being inserted.
    private var pending: [Key: DownloadDescriptor] = [:]
    /// How many starts were answered, and how many inserted (or failed), since the service started;
    /// both grow in the same order, so a request that waits for `answeredCount` waits for exactly
    /// the starts answered before it.
    private var answeredCount = 0
    private var insertedCount = 0
    private var isInserting = false
    private var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Whether every start answered so far is inserted.
    var isSettled: Bool { insertedCount == answeredCount }

    /// The download as answered, when its start is answered and its insert still to come.
    func answered(app: String, identifier: String) -> DownloadDescriptor? {
        pending[Key(app: app, identifier: identifier)]
    }

    /// Records an answered start.
    /// - Returns: Whether the caller must start inserting: no batch is on its way.
    mutating func add(_ download: NewDownload) -> Bool {
        waiting.append(download)
        pending[Key(app: download.bundleIdentifier, identifier: download.descriptor.identifier)] = download.descriptor
        answeredCount += 1
        guard !isInserting else { return false }
        isInserting = true
        return true
    }

    /// The next batch to insert, every start answered since the last; empty once there is none,
    /// and the inserting ends.
    mutating func takeWaiting() -> [NewDownload] {
        let batch = waiting
        waiting = []
        if batch.isEmpty { isInserting = false }
        return batch
    }

    /// Records that a batch was inserted, or failed.
    /// - Returns: The requests that waited for it, to resume.
    mutating func inserted(_ batch: [NewDownload]) -> [CheckedContinuation<Void, Never>] {
        for download in batch {
            pending[Key(app: download.bundleIdentifier, identifier: download.descriptor.identifier)] = nil
        }
        insertedCount += batch.count
        let done = waiters.filter { $0.target <= insertedCount }
        waiters.removeAll { $0.target <= insertedCount }
        return done.map(\.continuation)
    }

    /// What a request arriving now waits for: the starts answered so far.
    var waitTarget: Int { answeredCount }

    /// Resumes `continuation` once the starts up to `target` are inserted.
    mutating func wait(until target: Int, _ continuation: CheckedContinuation<Void, Never>) {
        guard target > insertedCount else { return continuation.resume() }
        waiters.append((target, continuation))
    }
}

extension ClientRequest {
    /// Whether the request reads or changes downloads, and so first waits for the foreground starts
    /// answered before it (``ForegroundStartInserts``). A foreground start does not (it looks at
    /// those still to come itself), nor do the requests that only pass something on: exclusive
    /// control, a delivery's acknowledgement, a challenge's answer, the delegate's presence.
    var seesAnsweredForegroundStarts: Bool {
        switch self {
        case .hello, .assetPacks, .tasks, .urlSessions, .notifications:
            false
        case .core, .tool:
            true
        case let .downloads(request):
            switch request {
            case .schedule, .cancel, .fetchCurrentDownloads, .fetchCurrentDownloadsPage:
                true
            case .startForeground, .setDelegate, .acquireExclusiveControl, .releaseExclusiveControl,
                 .answerChallenge, .acknowledgeDelivery:
                false
            }
        }
    }
}
