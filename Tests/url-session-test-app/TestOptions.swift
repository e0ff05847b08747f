/*
Abstract:
What the test app was asked to do, and what it expects to see completed before it exits with --wait.
*/

import BackgroundURLSessions
import LifecycleTestKit
import Synchronization

/// What the test asked the app to do: its arguments, read through, and the tasks it waits for.
@dynamicMemberLookup
final class TestOptions: Sendable {
    private let arguments: TestArguments
    private let expected = Mutex<Set<Int>>([])

    init(_ arguments: TestArguments) {
        self.arguments = arguments
    }

    subscript<Value>(dynamicMember keyPath: KeyPath<TestArguments, Value>) -> Value {
        arguments[keyPath: keyPath]
    }

    func configuration() -> BackgroundURLSessionConfiguration {
        let configuration = URLSessionConfiguration.background(withIdentifier: arguments.session)
        configuration.sessionSendsLaunchEvents = arguments.launchEvents
        configuration.isDiscretionary = arguments.discretionary
        if arguments.sharedContainer { configuration.sharedContainerIdentifier = URLSessionTestLog.appGroup }
        return configuration
    }

    /// The session's delegate: it exits with --wait once every expected task completed, and cancels
    /// with resume data (then resumes from it) with --cancel-resume-after.
    func delegate() -> RecordingSessionDelegate {
        let cancelled = Mutex<Set<Int>>([])
        return RecordingSessionDelegate(
            onCompletion: { [self] completed in
                let remaining = expected.withLock { $0.subtracting(completed) }
                if arguments.wait, remaining.isEmpty { URLSessionTestLog.shared.append("done"); exit(0) }
            },
            onProgress: { [self] task, bytes in
                guard let limit = arguments.cancelResumeAfter, bytes >= limit,
                      cancelled.withLock({ $0.insert(task.taskIdentifier).inserted }) else { return }
                let session = URLSessionTestApp.sessions.last
                // Until the task made from the resume data is expected, --wait must not end on the
                // cancelled task's completion, which may arrive first.
                let placeholder = -task.taskIdentifier
                self.expect([placeholder])
                task.cancel { data in
                    defer { self.expected.withLock { _ = $0.remove(placeholder) } }
                    var record = URLSessionTestRecord(event: "cancelledWithResumeData", session: self.arguments.session, task: task.taskIdentifier)
                    record.bytes = bytes
                    record.hasResumeData = data != nil
                    URLSessionTestLog.shared.append(record)
                    guard let data, let session else { return }
                    let resumed = session.downloadTask(withResumeData: data)
                    // The task that continues is not cancelled again.
                    cancelled.withLock { _ = $0.insert(resumed.taskIdentifier) }
                    self.expect([resumed.taskIdentifier])
                    URLSessionTestLog.shared.append("resumedFromResumeData", session: self.arguments.session, task: resumed.taskIdentifier)
                    resumed.resume()
                }
            })
    }

    /// Adds tasks the app waits for with --wait.
    func expect(_ tasks: [Int]) {
        expected.withLock { $0.formUnion(tasks) }
    }
}
