/*
Abstract:
A session owner in a file that imports BackgroundURLSessions first, then FoundationNetworking, BackgroundTasks and Foundation: every name resolves.
*/

// The same names as ImportsTasksFirst.swift, with the imports the other way round and
// FoundationNetworking imported too, as code written for both platforms often does. The build is
// the test: an ambiguous name fails it. The one name such a file cannot use is a task's
// `earliestBeginDate`, which Foundation declares too (see Docs/AppleAPIMapping.md).
import BackgroundURLSessions
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BackgroundAssets
import BackgroundTasks
import Foundation

/// A download manager as a background-download article writes it.
final class URLSessionsFirstDownloader: NSObject, URLSessionDelegate, URLSessionTaskDelegate, URLSessionDownloadDelegate,
    @unchecked Sendable
{
    // @unchecked: used from the delegate queue and the test only.
    var finishedEvents = 0

    func makeSession(identifier: String) -> URLSession {
        let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
        configuration.sharedContainerIdentifier = "group.com.example"
        configuration.waitsForConnectivity = true
        configuration.allowsExpensiveNetworkAccess = false
        configuration.allowsConstrainedNetworkAccess = false
        configuration.httpAdditionalHeaders = ["X-Client": "import-order"]
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {}

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {}

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        finishedEvents += 1
    }

    func upload(_ file: URL, to url: URL, in session: URLSession) -> URLSessionUploadTask {
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        return session.uploadTask(with: request, fromFile: file)
    }

    func scheduleRefresh() throws {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        try BGTaskScheduler.shared.submit(request)
    }

    func pendingRefreshes() async -> [BGTaskRequest] {
        await BGTaskScheduler.shared.pendingTaskRequests()
    }
}
