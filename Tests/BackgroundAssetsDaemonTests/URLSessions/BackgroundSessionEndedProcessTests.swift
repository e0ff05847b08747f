/*
Abstract:
Tests that a session's events outlive a process that ended before the service handled its close: what it could not be sent, and what waited while the app still counted as running.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Background sessions: events a process that had ended could not receive")
struct BackgroundSessionEndedProcessTests {
    let app = "com.example.game"
    let key = BackgroundSessionKey(bundleIdentifier: "com.example.game", sessionIdentifier: "scores")
    let request = BackgroundTaskRequest(url: URL(string: "https://cdn.example.com/uploads/scores.json")!, httpMethod: "PUT",
                                        bodyFile: URL(fileURLWithPath: "/device/staging/url-session-uploads/com.example.game/A.body"))
    let answer = BackgroundTaskResponse(url: URL(string: "https://cdn.example.com/uploads/scores.json")!, statusCode: 201)

    /// A state with one resumed upload, its session attached to connection 7 of a running app.
    func running() -> BackgroundSessionState {
        var state = BackgroundSessionState()
        state.runningApps.insert(app)
        _ = state.attach(BackgroundSessionSettings(identifier: "scores"), app: app, connection: 7)
        _ = state.makeTask(request, key: key, bodyLength: 300)
        _ = state.resume(task: 1, key: key, earliestBeginDate: nil, expectedBytes: -1, now: Date(timeIntervalSince1970: 0))
        return state
    }

    /// The events the state sent to `connection`.
    func sent(_ actions: [BackgroundSessionAction], to connection: UInt64) -> [BackgroundSessionEvent] {
        actions.compactMap { if case let .send(to, _, event) = $0, to == connection { event } else { nil } }
    }

    @Test("An answer sent to a process that had ended waits for the next, its task listed again, and launches the app")
    func answerToEndedProcess() throws {
        var state = running()
        // The service has not handled the close yet: the state sends the answer to connection 7,
        // whose write fails, and the task leaves the session as if it had been delivered.
        let lost = sent(state.uploadFinished(task: 1, key: key, response: answer, body: Data("ok".utf8)), to: 7)
        #expect(lost.count == 3 && state.record(key)?.tasks.isEmpty == true)
        state.runningApps.remove(app)
        let closed = state.connectionClosed(7, undelivered: [key: lost + [.sentBodyData(taskIdentifier: 1, bytesSent: 1, totalBytesSent: 300,
                                                                                        totalBytesExpectedToSend: 300)]]) { _ in true }
        #expect(closed.contains(.launchApp(bundleIdentifier: app, session: "scores")))
        #expect(state.record(key)?.waiting == lost, "progress is not kept")

        let attach = state.attach(BackgroundSessionSettings(identifier: "scores"), app: app, connection: 9)
        guard case let .attached(tasks) = sent(attach, to: 9).first else { Issue.record("no attached event: \(attach)"); return }
        #expect(tasks.map(\.taskIdentifier) == [1] && tasks.first?.state == .running, "the next process knows the task")
        #expect(Array(sent(attach, to: 9).dropFirst().prefix(3)) == lost)
        #expect(state.record(key)?.tasks.isEmpty == true, "delivered to the next process, the task is over")
    }

    @Test("A file and completion a process did not acknowledge wait once, not twice")
    func unacknowledgedFileWaitsOnce() throws {
        var state = BackgroundSessionState()
        _ = state.attach(BackgroundSessionSettings(identifier: "scores"), app: app, connection: 7)
        let download = BackgroundTaskRequest(url: URL(string: "https://cdn.example.com/game/data.archive")!)
        _ = state.makeTask(download, key: key)
        _ = state.resume(task: 1, key: key, earliestBeginDate: nil, expectedBytes: -1, now: Date(timeIntervalSince1970: 0))
        let file = URL(fileURLWithPath: "/device/containers/game/CFNetworkDownload_A.tmp")
        let lost = sent(state.transferFinished(task: 1, key: key, file: file, response: answer), to: 7)
        #expect(lost.count == 2)
        _ = state.connectionClosed(7, undelivered: [key: lost]) { _ in true }
        #expect(state.record(key)?.waiting == lost)
    }

    @Test("A completion that waited while the app ran without the session launches it once its last process ends")
    func waitedWhileRunning() {
        var state = running()
        // The session's connection closed first; another connection of the app is still open.
        #expect(state.connectionClosed(7) { _ in true }.isEmpty)
        let finished = state.uploadFinished(task: 1, key: key, response: answer, body: Data())
        #expect(!finished.contains(.launchApp(bundleIdentifier: app, session: "scores")), "a running app is not launched")
        #expect(state.appStopped(app) == [.launchApp(bundleIdentifier: app, session: "scores")])
        #expect(state.appStopped(app).isEmpty, "launched once")
    }

    @Test("An app that stops with nothing waiting, or asked for no launch events, is not launched")
    func stoppedWithNothingWaiting() {
        var state = running()
        _ = state.connectionClosed(7) { _ in true }
        #expect(state.appStopped(app).isEmpty, "the upload still runs")
        var quiet = BackgroundSessionState()
        quiet.runningApps.insert(app)
        _ = quiet.attach(BackgroundSessionSettings(identifier: "scores", sendsLaunchEvents: false), app: app, connection: 7)
        _ = quiet.makeTask(request, key: key, bodyLength: 300)
        _ = quiet.resume(task: 1, key: key, earliestBeginDate: nil, expectedBytes: -1, now: Date(timeIntervalSince1970: 0))
        _ = quiet.connectionClosed(7) { _ in true }
        _ = quiet.uploadFinished(task: 1, key: key, response: answer, body: Data())
        #expect(quiet.appStopped(app).isEmpty)
    }
}
