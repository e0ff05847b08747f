/*
Abstract:
Turns the system's events for a background session into Foundation's delegate calls, one at a time, in order.
*/

import BackgroundAssetsIPC
import BackgroundURLSessionDelegates
import Foundation
import FoundationNetworking
import URLChallengeBridge

extension BackgroundURLSession {
    /// Reads the session's events until the system ends the stream or the session is invalidated;
    /// a session being invalidated becomes invalid after the last of them.
    func receive(_ events: AsyncStream<BackgroundSessionEvent>) async {
        defer {
            if registry.withLock({ $0.isFinishing }) { becomeInvalid() }
        }
        for await event in events {
            // Each event's delegate call ends before the next starts: a file must be deleted after
            // didFinishDownloadingTo returns, and didCompleteWithError must come after it.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                if case let .attached(tasks) = event {
                    markAttached(with: tasks)
                    return done.resume()
                }
                onDelegateQueue { [self] in
                    handle(event)
                    done.resume()
                }
            }
        }
    }

    /// Handles one event on the delegate queue.
    private func handle(_ event: BackgroundSessionEvent) {
        let downloadDelegate = delegate as? any FoundationNetworking.URLSessionDownloadDelegate
        switch event {
        case .attached:
            break
        case let .updated(snapshot):
            task(snapshot.taskIdentifier)?.core.apply(snapshot)
        case let .resumed(identifier, offset, expected):
            guard let task = task(identifier), let downloadTask = task as? URLSessionDownloadTask else { return }
            task.core.applyProgress(totalBytesWritten: offset, totalBytesExpectedToWrite: expected)
            downloadDelegate?.urlSession(self, downloadTask: downloadTask, didResumeAtOffset: offset, expectedTotalBytes: expected)
        case let .wroteData(identifier, written, total, expected):
            guard let task = task(identifier), let downloadTask = task as? URLSessionDownloadTask else { return }
            task.core.applyProgress(totalBytesWritten: total, totalBytesExpectedToWrite: expected)
            downloadDelegate?.urlSession(self, downloadTask: downloadTask, didWriteData: written, totalBytesWritten: total,
                                         totalBytesExpectedToWrite: expected)
        case let .finishedDownloading(identifier, file, response):
            if let task = task(identifier), let downloadTask = task as? URLSessionDownloadTask {
                task.core.applyResponse(response)
                downloadDelegate?.urlSession(self, downloadTask: downloadTask, didFinishDownloadingTo: file)
            }
            // As on Apple platforms, the file is gone once the method returns; move it before then.
            try? FileManager.default.removeItem(at: file)
            let service = service, session = settings.identifier
            Task { await service.fileHandled(session: session, taskIdentifier: identifier) }
        case let .completed(snapshot):
            complete(snapshot)
        case let .challenge(identifier, challengeID, challenge):
            answer(challenge, challengeID: challengeID, task: task(identifier))
        case let .sentBodyData(identifier, sent, total, expected):
            guard let task = task(identifier) else { return }
            task.core.applySent(totalBytesSent: total, totalBytesExpectedToSend: expected)
            (delegate as? any FoundationNetworking.URLSessionTaskDelegate)?.urlSession(
                self, task: task, didSendBodyData: sent, totalBytesSent: total, totalBytesExpectedToSend: expected)
        case let .receivedData(identifier, data):
            guard let dataTask = task(identifier) as? URLSessionDataTask else { return }
            (delegate as? any FoundationNetworking.URLSessionDataDelegate)?.urlSession(self, dataTask: dataTask, didReceive: data)
        case .waitingEventsDelivered:
            // The method exists only on this module's refinement of Foundation's protocol.
            (delegate as? any BackgroundURLSessionDelegates.URLSessionDelegate)?.urlSessionDidFinishEvents(forBackgroundURLSession: self)
        }
    }

    /// A task ended: it leaves the session's list, and the delegate hears of it.
    private func complete(_ snapshot: BackgroundTaskSnapshot) {
        let (task, isLast) = registry.withLock { registry in
            let task = registry.tasks.removeValue(forKey: snapshot.taskIdentifier)
            return (task, registry.isFinishing && registry.tasks.isEmpty)
        }
        if let task {
            task.core.apply(snapshot)
            (delegate as? any FoundationNetworking.URLSessionTaskDelegate)?.urlSession(self, task: task, didCompleteWithError: task.error)
        }
        if isLast { becomeInvalid() }
    }

    /// Tells the delegate a task completed with an error found in this process (a refused task).
    func deliverCompletion(of task: URLSessionTask, error: any Error) {
        onDelegateQueue { [self] in
            (delegate as? any FoundationNetworking.URLSessionTaskDelegate)?.urlSession(self, task: task, didCompleteWithError: error)
        }
    }

    private func answer(_ challenge: ChallengeDescriptor, challengeID: UInt64, task: (any BackgroundSessionTask)?) {
        let service = service, session = settings.identifier
        let reply: @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void = { disposition, credential in
            let answer = ChallengeAnswer(disposition, credential: credential)
            Task { await service.answer(answer, challengeID: challengeID, session: session) }
        }
        guard let task, let taskDelegate = delegate as? any FoundationNetworking.URLSessionTaskDelegate else {
            return reply(.performDefaultHandling, nil)
        }
        taskDelegate.urlSession(self, task: task, didReceive: challenge.authenticationChallenge, completionHandler: reply)
    }
}
