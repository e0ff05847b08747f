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
    /// Tasks that must complete before --wait exits, and those that did.
    private let tasks = Mutex<(expected: Set<Int>, completed: Set<Int>)>(([], []))
    /// Stands for the getAllTasks answer of --list: its tasks are not known until it comes, and
    /// their completions may be delivered before it.
    private static let listing = Int.min

    init(_ arguments: TestArguments) {
        self.arguments = arguments
        if arguments.list { expect([Self.listing]) }
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
                tasks.withLock { $0.completed.formUnion(completed) }
                exitIfDone()
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
                    defer { self.fulfil(placeholder) }
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
    func expect(_ identifiers: [Int]) {
        tasks.withLock { $0.expected.formUnion(identifiers) }
    }

    /// Records the tasks getAllTasks gave as expected, in place of the placeholder that held --wait.
    func listed(_ identifiers: [Int]) {
        expect(identifiers)
        fulfil(Self.listing)
    }

    private func fulfil(_ placeholder: Int) {
        tasks.withLock { _ = $0.expected.remove(placeholder) }
        exitIfDone()
    }

    private func exitIfDone() {
        let remaining = tasks.withLock { $0.expected.subtracting($0.completed) }
        if arguments.wait, remaining.isEmpty { URLSessionTestLog.shared.append("done"); exit(0) }
    }
}
