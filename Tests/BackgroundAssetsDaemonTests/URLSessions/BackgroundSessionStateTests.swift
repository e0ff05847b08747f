/*
Abstract:
Tests of the background-session state and policy: events to the attached process or kept, the relaunch, force-quit, timeouts.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Background sessions in the service")
struct BackgroundSessionStateTests {
    let key = BackgroundSessionKey(bundleIdentifier: "com.example.game", sessionIdentifier: "game-data")
    let request = BackgroundTaskRequest(url: URL(string: "https://cdn.example.com/game/data.archive")!)
    let now = Date(timeIntervalSince1970: 1_000_000)

    /// A state with one running task, attached to connection 7.
    func running() -> BackgroundSessionState {
        var state = BackgroundSessionState()
        _ = state.attach(BackgroundSessionSettings(identifier: "game-data"), app: "com.example.game", connection: 7)
        let made = state.makeTask(request, key: key)
        #expect(made?.0.taskIdentifier == 1)
        let actions = state.resume(task: 1, key: key, earliestBeginDate: nil, expectedBytes: 500, now: now)
        #expect(actions.first == .scheduleTransfer(key, task: 1, request: request, notBefore: nil, discretionary: false, resumingFrom: nil))
        return state
    }

    @Test("Events go to the attached process; after it exits they wait, and a completion launches the app")
    func eventsWaitAndLaunch() throws {
        var state = running()
        #expect(state.transferProgressed(task: 1, key: key, written: 10, total: 10, expected: 40)
            == [.send(connection: 7, key, .wroteData(taskIdentifier: 1, bytesWritten: 10, totalBytesWritten: 10, totalBytesExpectedToWrite: 40))])
        _ = state.connectionClosed(7) { _ in true }
        #expect(state.transferProgressed(task: 1, key: key, written: 30, total: 40, expected: 40).isEmpty,
                "progress of a session no process has is not kept")
        let file = URL(fileURLWithPath: "/device/containers/game/CFNetworkDownload_A.tmp")
        let response = BackgroundTaskResponse(url: request.url, statusCode: 200)
        let actions = state.transferFinished(task: 1, key: key, file: file, response: response)
        #expect(actions.contains(.launchApp(bundleIdentifier: "com.example.game", session: "game-data")))
        #expect(state.sessionsAwaitingEvents(app: "com.example.game") == ["game-data"])
        #expect(state.sessionsAwaitingEvents(app: "com.example.other").isEmpty)

        // The relaunched app makes the session again: the task, the waiting events, then the marker.
        let attach = state.attach(BackgroundSessionSettings(identifier: "game-data"), app: "com.example.game", connection: 9)
        let sent = attach.compactMap { action -> BackgroundSessionEvent? in
            if case let .send(9, _, event) = action { return event }
            return nil
        }
        #expect(sent.count == 4)
        guard case let .attached(tasks) = sent.first else { Issue.record("no attached event first"); return }
        #expect(tasks.map(\.taskIdentifier) == [1])
        #expect(sent[1] == .finishedDownloading(taskIdentifier: 1, file: file, response: response))
        #expect(sent.last == .waitingEventsDelivered)
        #expect(state.record(key)?.tasks.count == 1, "a file's task stays until didFinishDownloadingTo returns")
        _ = state.fileHandled(task: 1, key: key)
        #expect(state.record(key)?.tasks.isEmpty == true, "a handled file and a delivered completion end the task")
    }

    @Test("A session without launch events keeps its events without launching the app")
    func noLaunchEvents() throws {
        var state = BackgroundSessionState()
        _ = state.attach(BackgroundSessionSettings(identifier: "game-data", sendsLaunchEvents: false), app: "com.example.game", connection: 7)
        _ = state.makeTask(request, key: key)
        _ = state.resume(task: 1, key: key, earliestBeginDate: nil, expectedBytes: -1, now: now)
        _ = state.connectionClosed(7) { _ in true }
        let actions = state.transferFailed(task: 1, key: key, failure: .cancelled())
        #expect(!actions.contains { if case .launchApp = $0 { true } else { false } })
        #expect(state.record(key)?.waiting.count == 1)
    }

    @Test("Force-quit cancels the app's transfers with Apple's reason, keeps the completion for its next process and does not launch it")
    func forceQuit() throws {
        // Still attached: the connection of the process being killed has not closed yet.
        var state = running()
        let actions = state.forceQuit(app: "com.example.game")
        #expect(actions.first == .cancelTransfer(key, task: 1, keepPartialFile: false))
        #expect(!actions.contains { if case .launchApp = $0 { true } else { false } })
        guard case let .completed(snapshot) = state.record(key)?.waiting.last else { Issue.record("no completion kept"); return }
        #expect(snapshot.failure?.cancelledReason == .userForceQuitApplication)
        #expect(snapshot.failure?.error.code == -999)
        #expect(!actions.contains { if case .send = $0 { true } else { false } }, "nothing is sent to the killed process")
    }

    @Test("A task past timeoutIntervalForResource fails with NSURLErrorTimedOut")
    func resourceTimeout() throws {
        var state = BackgroundSessionState()
        _ = state.attach(BackgroundSessionSettings(identifier: "game-data", timeoutIntervalForResource: 60), app: "com.example.game", connection: 7)
        _ = state.makeTask(request, key: key)
        _ = state.resume(task: 1, key: key, earliestBeginDate: nil, expectedBytes: -1, now: now)
        #expect(state.expireTasks(now: now.addingTimeInterval(59)).isEmpty)
        let actions = state.expireTasks(now: now.addingTimeInterval(61))
        #expect(actions.first == .cancelTransfer(key, task: 1, keepPartialFile: false))
        #expect(actions.contains { if case let .send(7, _, .completed(s)) = $0 { s.failure?.error.code == -1001 } else { false } })
    }

    @Test("Cancelling with resume data completes the task once the queue kept its partial file")
    func cancelKeepingPartialFile() throws {
        var state = running()
        #expect(state.cancel(task: 1, key: key, keepingPartialFile: true) == [.cancelTransfer(key, task: 1, keepPartialFile: true)])
        let data = Data("resume".utf8)
        let actions = state.cancelledKeepingPartialFile(task: 1, key: key, resumeData: data)
        #expect(actions.contains { if case let .send(7, _, .completed(s)) = $0 { s.failure?.resumeData == data } else { false } })
    }

    @Test("Two apps with the same session identifier have two sessions")
    func appsApart() throws {
        var state = running()
        let other = BackgroundSessionKey(bundleIdentifier: "com.example.other", sessionIdentifier: "game-data")
        _ = state.attach(BackgroundSessionSettings(identifier: "game-data"), app: "com.example.other", connection: 8)
        #expect(state.record(other)?.tasks.isEmpty == true)
        #expect(state.record(key)?.tasks.count == 1)
        #expect(state.makeTask(request, key: other)?.0.taskIdentifier == 1)
    }

    @Test("Discretionary transfers wait for power and Low Power Mode off; every transfer waits for the network and its date")
    func eligibility() {
        var task = BackgroundTaskSnapshot(taskIdentifier: 1, request: request)
        let discretionary = BackgroundSessionSettings(identifier: "s", isDiscretionary: true)
        let plain = BackgroundSessionSettings(identifier: "s")
        var device = DeviceSettings()
        #expect(BackgroundSessionPolicy.eligibility(of: task, settings: discretionary, device: device, now: now) == .now)
        device.externalPower = false
        #expect(BackgroundSessionPolicy.eligibility(of: task, settings: discretionary, device: device, now: now)
            == .waiting("the session is discretionary and the device is on battery"))
        #expect(BackgroundSessionPolicy.eligibility(of: task, settings: plain, device: device, now: now) == .now)
        device.externalPower = true
        device.lowPowerMode = true
        #expect(BackgroundSessionPolicy.eligibility(of: task, settings: discretionary, device: device, now: now)
            == .waiting("the session is discretionary and Low Power Mode is on"))
        device.networkReachable = false
        #expect(BackgroundSessionPolicy.eligibility(of: task, settings: plain, device: device, now: now)
            == .waiting("the network is not reachable"))
        device = DeviceSettings()
        task.earliestBeginDate = now.addingTimeInterval(3_600)
        #expect(BackgroundSessionPolicy.eligibility(of: task, settings: plain, device: device, now: now) == .notBefore(now.addingTimeInterval(3_600)))
    }

    @Test("Queue identifiers name the session and task and read back")
    func queueIdentifiers() {
        let identifier = BackgroundSessionPolicy.queueIdentifier(for: key, task: 12)
        #expect(identifier == "urlsession.12.game-data")
        #expect(BackgroundSessionPolicy.task(fromQueueIdentifier: identifier)?.session == "game-data")
        #expect(BackgroundSessionPolicy.task(fromQueueIdentifier: identifier)?.task == 12)
        #expect(BackgroundSessionPolicy.task(fromQueueIdentifier: "wwdc23-10108") == nil)
        #expect(BackgroundSessionPolicy.task(fromQueueIdentifier: "urlsession.x.y") == nil)
    }
}
