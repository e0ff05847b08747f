/*
Abstract:
Tests that a handed-over file is delivered once didFinishDownloadingTo returns, waits again when the process ends first, and is never removed while an event names it.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Background sessions: a file counts as delivered once its method returns")
struct BackgroundSessionFileHandledTests {
    let key = BackgroundSessionKey(bundleIdentifier: "com.example.game", sessionIdentifier: "game-data")
    let request = BackgroundTaskRequest(url: URL(string: "https://cdn.example.com/game/data.archive")!)
    let file = URL(fileURLWithPath: "/device/containers/game/CFNetworkDownload_A.tmp")
    var response: BackgroundTaskResponse { BackgroundTaskResponse(url: request.url, statusCode: 200) }

    /// A state whose one task finished while connection 7 had the session, its file sent.
    func finishedWhileAttached(launchEvents: Bool = true) -> BackgroundSessionState {
        var state = BackgroundSessionState()
        state.runningApps.insert("com.example.game")
        _ = state.attach(BackgroundSessionSettings(identifier: "game-data", sendsLaunchEvents: launchEvents),
                         app: "com.example.game", connection: 7)
        _ = state.makeTask(request, key: key)
        _ = state.resume(task: 1, key: key, earliestBeginDate: nil, expectedBytes: -1, now: Date(timeIntervalSince1970: 0))
        let actions = state.transferFinished(task: 1, key: key, file: file, response: response)
        #expect(actions.contains(.send(connection: 7, key, .finishedDownloading(taskIdentifier: 1, file: file, response: response))))
        return state
    }

    /// A state whose one task finished while no process had the session, its file waiting.
    func finishedWithNoProcess() -> BackgroundSessionState {
        var state = BackgroundSessionState()
        _ = state.attach(BackgroundSessionSettings(identifier: "game-data"), app: "com.example.game", connection: 7)
        _ = state.makeTask(request, key: key)
        _ = state.resume(task: 1, key: key, earliestBeginDate: nil, expectedBytes: -1, now: Date(timeIntervalSince1970: 0))
        _ = state.connectionClosed(7) { _ in true }
        let actions = state.transferFinished(task: 1, key: key, file: file, response: response)
        #expect(!actions.contains(.removeFile(file)))
        return state
    }

    @Test("A transfer's end reported twice across a restart (the queue's event, then its row) keeps the file the first handed over",
          arguments: [false, true])
    func endReportedTwice(whileAttached: Bool) {
        var state = whileAttached ? finishedWhileAttached() : finishedWithNoProcess()
        #expect(state.filesNamedByEvents(of: key) == [file.path], "sent and not yet handled, or waiting")
        let second = state.transferFinished(task: 1, key: key, file: file, response: response)
        #expect(!second.contains(.removeFile(file)), "the app is promised this file: \(second)")
        #expect(state.filesNamedByEvents(of: key) == [file.path])
    }

    @Test("A file no task waits for and no event names is removed; once its method returned, the file is the app's no more")
    func unwantedFileRemoved() {
        var state = finishedWhileAttached()
        let stray = URL(fileURLWithPath: "/device/containers/game/CFNetworkDownload_9-B.tmp")
        #expect(state.transferFinished(task: 9, key: key, file: stray, response: response) == [.removeFile(stray)])
        _ = state.fileHandled(task: 1, key: key)
        #expect(state.filesNamedByEvents(of: key).isEmpty)
        let other = BackgroundSessionKey(bundleIdentifier: "com.example.other", sessionIdentifier: "game-data")
        #expect(state.filesNamedByEvents(of: other).isEmpty, "a session nobody made names nothing")
    }

    @Test("A process that ends before didFinishDownloadingTo returns leaves the file and the completion to the next, and the app is launched for them")
    func processEndsFirst() throws {
        var state = finishedWhileAttached()
        state.runningApps.remove("com.example.game")
        let actions = state.connectionClosed(7) { $0 == file }
        #expect(actions.contains(.launchApp(bundleIdentifier: "com.example.game", session: "game-data")))
        let waiting = try #require(state.record(key)?.waiting)
        #expect(waiting.first == .finishedDownloading(taskIdentifier: 1, file: file, response: response))
        guard case let .completed(snapshot) = waiting.last else { Issue.record("no completion waits"); return }
        #expect(snapshot.taskIdentifier == 1 && snapshot.failure == nil)

        // The next process gets them; once its method returns, the task is gone.
        let attach = state.attach(BackgroundSessionSettings(identifier: "game-data"), app: "com.example.game", connection: 9)
        #expect(attach.contains(.send(connection: 9, key, .finishedDownloading(taskIdentifier: 1, file: file, response: response))))
        #expect(state.record(key)?.tasks.count == 1)
        _ = state.fileHandled(task: 1, key: key)
        #expect(state.record(key)?.tasks.isEmpty == true)
        #expect(state.record(key)?.unacknowledged == nil)
    }

    @Test("A file the ended process had already moved is not sent again; its completion is")
    func fileAlreadyGone() throws {
        var state = finishedWhileAttached(launchEvents: false)
        _ = state.connectionClosed(7) { _ in false }
        let waiting = try #require(state.record(key)?.waiting)
        #expect(waiting.count == 1)
        guard case .completed = waiting.first else { Issue.record("no completion waits"); return }
    }

    @Test("A handled file ends its task, and a finishing session with it")
    func handledEndsTask() throws {
        var state = finishedWhileAttached()
        _ = state.invalidate(key: key, cancellingTasks: false)
        #expect(state.record(key) != nil, "the session waits for the file's method to return")
        let actions = state.fileHandled(task: 1, key: key)
        #expect(state.record(key) == nil)
        #expect(actions.contains(.persist(key, nil)))
        _ = state.connectionClosed(7) { _ in true }
        #expect(state.record(key) == nil, "nothing waits once it was handled")
    }
}
