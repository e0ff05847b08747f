/*
Abstract:
Tests of a background session across processes: tasks back in a new process, the relaunch's events, isolation, invalidation.
*/

import BackgroundAssetsIPC
@testable import BackgroundURLSessions
import Synchronization
import TestSupport
import Testing

@Suite("Background sessions across processes")
struct BackgroundSessionLifecycleTests {
    let system: InMemoryURLSessionSystem

    init() throws {
        system = try InMemoryURLSessionSystem()
    }

    func session(app: String = "com.example.game", delegate: RecordingDelegate) -> URLSession {
        BackgroundURLSession(configuration: .background(withIdentifier: "game-data"), delegate: delegate,
                             delegateQueue: nil, service: system.client(app: app))
    }

    @Test("A session made again in a new process gets its outstanding tasks and the events that happened meanwhile")
    func outstandingTasksComeBack() async throws {
        let first = session(delegate: RecordingDelegate())
        let task = first.downloadTask(with: URL(string: "https://cdn.example.com/game/data.archive")!)
        task.taskDescription = "game data"
        task.resume()
        try await poll(until: { system.tasks(app: "com.example.game", session: "game-data")[1]?.state == .running },
                       "the task running in the system")
        // The first process is gone (its attachment is taken over); the transfer goes on meanwhile.
        let delegate = RecordingDelegate()
        let second = session(delegate: delegate)
        let tasks = await second.allTasks
        #expect(tasks.map(\.taskIdentifier) == [1])
        #expect(tasks.first?.taskDescription == "game data")
        #expect(tasks.first?.state == .running)
        #expect(tasks.first is URLSessionDownloadTask)
        _ = try system.finish(app: "com.example.game", session: "game-data", task: 1, contents: "v2")
        try await poll(until: { delegate.calls == ["finished 1 200", "completed 1 ok"] },
                       "the file in the new process")
        #expect(delegate.files[1] == "v2")
        let next = second.downloadTask(with: URL(string: "https://cdn.example.com/game/version.json")!)
        #expect(next.taskIdentifier == 2, "identifiers stay unique across processes")
    }

    @Test("A relaunched app gets handleEventsForBackgroundURLSession, the events, then urlSessionDidFinishEvents")
    func relaunchForEvents() async throws {
        let app = "com.example.relaunched"
        let gone = session(app: app, delegate: RecordingDelegate())
        gone.downloadTask(with: URL(string: "https://cdn.example.com/game/data.archive")!).resume()
        try await poll(until: { system.tasks(app: app, session: "game-data")[1]?.state == .running },
                       "the transfer")
        // The app's process is gone (its connection closed): events wait, and the system launches the app for them.
        system.with(app, "game-data") { $0.listener = nil }
        _ = try system.finish(app: app, session: "game-data", task: 1, contents: "v2")
        system.launchForEvents(app: app, session: "game-data")

        let appDelegate = AppDelegate()
        let delegate = RecordingDelegate()
        await BackgroundURLSessionEvents.deliver(to: appDelegate, service: system.client(app: app), queue: .global()).value
        let identifier = try await poll("the app delegate's call") { appDelegate.identifier }
        #expect(identifier == "game-data")
        let relaunched = session(app: app, delegate: delegate)
        try await poll(until: { delegate.calls.count == 3 },
                       "the waiting events: \(delegate.calls)")
        #expect(delegate.calls == ["finished 1 200", "completed 1 ok", "finished events"])
        #expect(system.handledSessions.isEmpty, "the system waits for the completion handler")
        appDelegate.callHandler()
        try await poll(until: { system.handledSessions == ["\(app)/game-data"] },
                       "the handler reaching the system")
        _ = relaunched
    }

    @Test("Two apps do not see each other's sessions")
    func appsAreIsolated() async throws {
        let game = session(app: "com.example.game", delegate: RecordingDelegate())
        game.downloadTask(with: URL(string: "https://cdn.example.com/game/data.archive")!).resume()
        let other = session(app: "com.example.other", delegate: RecordingDelegate())
        #expect(await other.allTasks.isEmpty)
        #expect(await game.allTasks.count == 1)
    }

    @Test("invalidateAndCancel cancels every task, then the session becomes invalid and makes no task")
    func invalidateAndCancel() async throws {
        let delegate = RecordingDelegate()
        let session = session(delegate: delegate)
        session.downloadTask(with: URL(string: "https://cdn.example.com/a")!).resume()
        session.downloadTask(with: URL(string: "https://cdn.example.com/b")!).resume()
        session.invalidateAndCancel()
        try await poll(until: { delegate.calls.last == "invalid" },
                       "the invalidation: \(delegate.calls)")
        #expect(delegate.calls == ["completed 1 -999", "completed 2 -999", "invalid"])
        let late = session.downloadTask(with: URL(string: "https://cdn.example.com/c")!)
        late.resume()
        #expect(late.state == .completed)
    }

    @Test("finishTasksAndInvalidate waits for the tasks to end")
    func finishTasksAndInvalidate() async throws {
        let delegate = RecordingDelegate()
        let session = session(delegate: delegate)
        session.downloadTask(with: URL(string: "https://cdn.example.com/a")!).resume()
        session.finishTasksAndInvalidate()
        _ = try system.finish(app: "com.example.game", session: "game-data", task: 1, contents: "a")
        try await poll(until: { delegate.calls.last == "invalid" }, "the invalidation")
        #expect(delegate.calls == ["finished 1 200", "completed 1 ok", "invalid"])
    }

    @Test("A session the system refuses fails its tasks with the reason")
    func refusedSession() async throws {
        let delegate = RecordingDelegate()
        let session = BackgroundURLSession(configuration: .background(withIdentifier: ""), delegate: delegate,
                                           delegateQueue: nil, service: system.client(app: "com.example.game"))
        session.downloadTask(with: URL(string: "https://cdn.example.com/a")!).resume()
        try await poll(until: { delegate.completionError != nil }, "the refusal")
        #expect(delegate.completionError?.localizedDescription.contains("needs an identifier") == true)
        #expect(system.warnings.contains { $0.contains("needs an identifier") }, "said at once, as Apple's exception is")
    }
}

/// An app delegate as Apple's article writes it, less the `UIApplication` parameter.
private final class AppDelegate: BackgroundURLSessionApplicationDelegate, @unchecked Sendable {
    // @unchecked: the state is behind a lock.
    private let state = Mutex<(identifier: String?, handler: (@Sendable () -> Void)?)>((nil, nil))

    var identifier: String? { state.withLock { $0.identifier } }

    func application(handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: @escaping @Sendable () -> Void) {
        state.withLock { $0 = (identifier, completionHandler) }
    }

    func callHandler() {
        state.withLock { $0.handler }?()
    }
}
