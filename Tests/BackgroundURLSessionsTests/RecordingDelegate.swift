/*
Abstract:
A session delegate written as Apple's article writes one, that records every call and keeps each file it receives.
*/

// Imports BackgroundURLSessions instead of Foundation, as an app file does, so URLSessionDownloadDelegate
// is the refinement that carries urlSessionDidFinishEvents(forBackgroundURLSession:).
import BackgroundURLSessions
import Synchronization

final class RecordingDelegate: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
    // @unchecked: the only state is behind a lock.
    private let log = Mutex<[String]>([])
    private let kept = Mutex<[Int: String]>([:])
    private let lastError = Mutex<NSError?>(nil)

    var calls: [String] { log.withLock { $0 } }
    /// The contents of each file, by task, read before the method returned.
    var files: [Int: String] { kept.withLock { $0 } }
    var completionError: NSError? { lastError.withLock { $0 } }

    private func record(_ line: String) { log.withLock { $0.append(line) } }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        let status = (downloadTask.response as? HTTPURLResponse)?.statusCode ?? 0
        let contents = (try? String(contentsOf: location, encoding: .utf8)) ?? "<unreadable>"
        kept.withLock { $0[downloadTask.taskIdentifier] = contents }
        record("finished \(downloadTask.taskIdentifier) \(status)")
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        record("wrote \(downloadTask.taskIdentifier) \(totalBytesWritten)/\(totalBytesExpectedToWrite)")
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let nsError = error as NSError?
        lastError.withLock { $0 = nsError }
        record("completed \(task.taskIdentifier) \(nsError.map { "\($0.code)" } ?? "ok")")
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        record("finished events")
    }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: Error?) {
        record("invalid")
    }
}
