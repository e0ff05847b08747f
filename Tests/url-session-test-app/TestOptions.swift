/*
Abstract:
What the test app was asked to do, and what it expects to see completed before it exits with --wait.
*/

import BackgroundURLSessions
import Synchronization

/// What the test asked the app to do.
final class TestOptions: Sendable {
    let session: String
    let launchEvents: Bool
    let discretionary: Bool
    let sharedContainer: Bool
    let downloads: [URL]
    let cancelResumeAfter: Int64?
    let dataTask: URL?
    let list: Bool
    let notification: String?
    let wait: Bool
    private let expected = Mutex<Set<Int>>([])

    init(_ arguments: TestArguments) {
        session = arguments.session
        launchEvents = arguments.launchEvents
        discretionary = arguments.discretionary
        sharedContainer = arguments.sharedContainer
        downloads = arguments.downloads
        cancelResumeAfter = arguments.cancelResumeAfter
        dataTask = arguments.dataTask
        list = arguments.list
        notification = arguments.notification
        wait = arguments.wait
    }

    func configuration() -> BackgroundURLSessionConfiguration {
        let configuration = URLSessionConfiguration.background(withIdentifier: session)
        configuration.sessionSendsLaunchEvents = launchEvents
        configuration.isDiscretionary = discretionary
        if sharedContainer { configuration.sharedContainerIdentifier = URLSessionTestLog.appGroup }
        return configuration
    }

    /// The session's delegate: it exits with --wait once every expected task completed, and cancels
    /// with resume data (then resumes from it) with --cancel-resume-after.
    func delegate() -> RecordingSessionDelegate {
        let cancelled = Mutex<Set<Int>>([])
        return RecordingSessionDelegate(
            onCompletion: { [self] completed in
                let remaining = expected.withLock { $0.subtracting(completed) }
                if wait, remaining.isEmpty { URLSessionTestLog.shared.append("done"); exit(0) }
            },
            onProgress: { [self] task, bytes in
                guard let limit = cancelResumeAfter, bytes >= limit,
                      cancelled.withLock({ $0.insert(task.taskIdentifier).inserted }) else { return }
                let session = URLSessionTestApp.sessions.last
                // Until the task made from the resume data is expected, --wait must not end on the
                // cancelled task's completion, which may arrive first.
                let placeholder = -task.taskIdentifier
                self.expect([placeholder])
                task.cancel { data in
                    defer { self.expected.withLock { _ = $0.remove(placeholder) } }
                    var record = URLSessionTestRecord(event: "cancelledWithResumeData", session: self.session, task: task.taskIdentifier)
                    record.bytes = bytes
                    record.hasResumeData = data != nil
                    URLSessionTestLog.shared.append(record)
                    guard let data, let session else { return }
                    let resumed = session.downloadTask(withResumeData: data)
                    // The task that continues is not cancelled again.
                    cancelled.withLock { _ = $0.insert(resumed.taskIdentifier) }
                    self.expect([resumed.taskIdentifier])
                    URLSessionTestLog.shared.append("resumedFromResumeData", session: self.session, task: resumed.taskIdentifier)
                    resumed.resume()
                }
            })
    }

    /// Adds tasks the app waits for with --wait.
    func expect(_ tasks: [Int]) {
        expected.withLock { $0.formUnion(tasks) }
    }
}
