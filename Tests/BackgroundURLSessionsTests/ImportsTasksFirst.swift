/*
Abstract:
A session owner in a file that imports BackgroundTasks before BackgroundURLSessions, with Foundation and UserNotifications: every name resolves.
*/

// Apple code that schedules a refresh and downloads in the background imports BackgroundTasks
// and Foundation; on Linux it adds BackgroundURLSessions. The build is the test: an ambiguous name
// fails it. ImportsURLSessionsFirst.swift imports FoundationNetworking too.
import BackgroundTasks
import BackgroundURLSessions
import Foundation
import UserNotifications

/// A refresh that downloads in the background, as a ColorFeed-style app writes it.
final class RefreshingDownloader: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
    // @unchecked: used from the delegate queue and the test only.
    static let refreshIdentifier = "com.example.refresh"
    var finishedEvents = 0

    func makeSession(identifier: String) -> URLSession {
        let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
        configuration.isDiscretionary = false
        configuration.sessionSendsLaunchEvents = true
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    func scheduleRefresh() throws {
        let request = BGAppRefreshTaskRequest(identifier: Self.refreshIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        try BGTaskScheduler.shared.submit(request)
    }

    func download(_ url: URL, in session: URLSession) -> URLSessionDownloadTask {
        let task = session.downloadTask(with: url)
        task.earliestBeginDate = Date(timeIntervalSinceNow: 60)
        task.countOfBytesClientExpectsToReceive = 1024
        return task
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {}

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {}

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        finishedEvents += 1
    }
}

/// An upload's delegate in the same file: the data and task delegates resolve too.
final class TasksFirstUploadDelegate: NSObject, URLSessionDataDelegate, URLSessionTaskDelegate, URLSessionDelegate,
    @unchecked Sendable
{
    // @unchecked: used from the delegate queue and the test only.
    var finishedEvents = 0

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {}

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        finishedEvents += 1
    }
}
