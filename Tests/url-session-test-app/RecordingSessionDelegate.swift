/*
Abstract:
The test app's session delegate: records every call, moves each file before returning, and calls the relaunch's completion handler.
*/

import BackgroundURLSessions
import LifecycleTestKit
import Synchronization

/// Records each delegate call of a background session; moves finished files into the container.
final class RecordingSessionDelegate: NSObject, URLSessionDownloadDelegate, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: the handler and the counters are behind a lock; the log is Sendable.
    private struct State {
        var completionHandler: (@Sendable () -> Void)?
        var recordedProgress: Set<Int> = []
        var completed: Set<Int> = []
        var recordedSent: Set<Int> = []
    }

    private let state = Mutex(State())
    private let log = URLSessionTestLog.shared
    /// Called on each completion, with the identifiers of every task completed so far.
    let onCompletion: @Sendable (Set<Int>) -> Void
    /// Called on progress, with the task and its bytes so far.
    let onProgress: @Sendable (URLSessionDownloadTask, Int64) -> Void

    init(onCompletion: @escaping @Sendable (Set<Int>) -> Void = { _ in },
         onProgress: @escaping @Sendable (URLSessionDownloadTask, Int64) -> Void = { _, _ in }) {
        self.onCompletion = onCompletion
        self.onProgress = onProgress
    }

    /// Keeps the completion handler of the relaunch for events, to call from urlSessionDidFinishEvents.
    func keep(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.completionHandler = handler }
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        // The file is gone once this returns: move it first.
        let identifier = session.configuration.identifier ?? ""
        let destination = log.filesFolder.appending(path: "\(identifier)-\(downloadTask.taskIdentifier)")
        var record = URLSessionTestRecord(event: "didFinishDownloadingTo", session: identifier, task: downloadTask.taskIdentifier)
        do {
            try FileManager.default.createDirectory(at: log.filesFolder, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.moveItem(at: location, to: destination)
            record.file = destination.path
        } catch {
            record.message = "\(error)"
        }
        log.append(record)
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        let first = state.withLock { $0.recordedProgress.insert(downloadTask.taskIdentifier).inserted }
        if first {
            var record = URLSessionTestRecord(event: "didWriteData", session: session.configuration.identifier, task: downloadTask.taskIdentifier)
            record.bytes = totalBytesWritten
            log.append(record)
        }
        onProgress(downloadTask, totalBytesWritten)
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
                    expectedTotalBytes: Int64) {
        var record = URLSessionTestRecord(event: "didResumeAtOffset", session: session.configuration.identifier, task: downloadTask.taskIdentifier)
        record.bytes = fileOffset
        log.append(record)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
                    totalBytesExpectedToSend: Int64) {
        // The first report, and the one that says the whole body went.
        let first = state.withLock { $0.recordedSent.insert(task.taskIdentifier).inserted }
        guard first || totalBytesSent == totalBytesExpectedToSend else { return }
        var record = URLSessionTestRecord(event: "didSendBodyData", session: session.configuration.identifier, task: task.taskIdentifier)
        record.bytes = totalBytesSent
        record.message = "\(totalBytesExpectedToSend)"
        log.append(record)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var record = URLSessionTestRecord(event: "didReceiveData", session: session.configuration.identifier, task: dataTask.taskIdentifier)
        record.status = (dataTask.response as? HTTPURLResponse)?.statusCode
        record.message = String(decoding: data, as: UTF8.self)
        log.append(record)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        var record = URLSessionTestRecord(event: "didCompleteWithError", session: session.configuration.identifier, task: task.taskIdentifier)
        record.status = (task.response as? HTTPURLResponse)?.statusCode
        if let error = error as NSError? {
            record.domain = error.domain
            record.code = error.code
            record.message = error.localizedDescription
            record.reason = error.userInfo[NSURLErrorBackgroundTaskCancelledReasonKey] as? Int
            record.hasResumeData = error.userInfo[URLSessionDownloadTaskResumeData] != nil
        }
        log.append(record)
        let completed = state.withLock { state in
            state.completed.insert(task.taskIdentifier)
            return state.completed
        }
        onCompletion(completed)
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        log.append("urlSessionDidFinishEvents", session: session.configuration.identifier)
        // As Apple's article says: call the handler kept from the app delegate, on the main queue.
        let handler = state.withLock { state in
            defer { state.completionHandler = nil }
            return state.completionHandler
        }
        DispatchQueue.main.async {
            // Recorded first: the call lets the system end this process, maybe before a line after it is written.
            if handler != nil { self.log.append("callingCompletionHandler", session: session.configuration.identifier) }
            handler?()
        }
    }
}
