/*
Abstract:
Tests of an upload task in the background-session state: progress to the attached process, the answer, and what waits for a relaunch.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Background session uploads in the service")
struct BackgroundSessionUploadStateTests {
    let key = BackgroundSessionKey(bundleIdentifier: "com.example.game", sessionIdentifier: "scores")
    let request = BackgroundTaskRequest(url: URL(string: "https://cdn.example.com/uploads/scores.json")!, httpMethod: "PUT",
                                        bodyFile: URL(fileURLWithPath: "/device/staging/url-session-uploads/com.example.game/A.body"))
    let answer = BackgroundTaskResponse(url: URL(string: "https://cdn.example.com/uploads/scores.json")!, statusCode: 201,
                                        headers: ["Content-Length": "2"])

    /// A state with one resumed upload of 300 bytes, attached to connection 7.
    func running() -> BackgroundSessionState {
        var state = BackgroundSessionState()
        _ = state.attach(BackgroundSessionSettings(identifier: "scores"), app: "com.example.game", connection: 7)
        let made = state.makeTask(request, key: key, bodyLength: 300)
        #expect(made?.0.countOfBytesSent == 0 && made?.0.countOfBytesExpectedToSend == 300)
        let actions = state.resume(task: 1, key: key, earliestBeginDate: nil, expectedBytes: -1, now: Date(timeIntervalSince1970: 0))
        #expect(actions.first == .scheduleTransfer(key, task: 1, request: request, notBefore: nil, discretionary: false, resumingFrom: nil))
        return state
    }

    @Test("Bytes sent reach the attached process as didSendBodyData, and the task's counts")
    func progress() {
        var state = running()
        #expect(state.uploadProgressed(task: 1, key: key, sent: 128, total: 128, expected: 300)
            == [.send(connection: 7, key, .sentBodyData(taskIdentifier: 1, bytesSent: 128, totalBytesSent: 128, totalBytesExpectedToSend: 300))])
        #expect(state.record(key)?.tasks[1]?.countOfBytesSent == 128)
        _ = state.connectionClosed(7) { _ in true }
        #expect(state.uploadProgressed(task: 1, key: key, sent: 172, total: 300, expected: 300).isEmpty,
                "progress of a session no process has is not kept")
        #expect(state.record(key)?.tasks[1]?.countOfBytesSent == 300)
    }

    @Test("The answer reaches the attached process: the response, its body, then the completion")
    func answerToAttachedProcess() throws {
        var state = running()
        let sent = state.uploadFinished(task: 1, key: key, response: answer, body: Data("ok".utf8)).compactMap { action in
            if case let .send(7, _, event) = action { event } else { nil }
        }
        #expect(sent.count == 3)
        guard case let .updated(snapshot) = sent.first else { Issue.record("no updated event first: \(sent)"); return }
        #expect(snapshot.response?.statusCode == 201 && snapshot.countOfBytesSent == 300 && snapshot.countOfBytesReceived == 2)
        #expect(sent[1] == .receivedData(taskIdentifier: 1, data: Data("ok".utf8)))
        guard case let .completed(completed) = sent.last else { Issue.record("no completion last: \(sent)"); return }
        #expect(completed.failure == nil && completed.response?.statusCode == 201)
        #expect(state.record(key)?.tasks.isEmpty == true)
    }

    @Test("An answer no process is there for waits, and launches the app")
    func answerWaitsAndLaunches() {
        var state = running()
        _ = state.connectionClosed(7) { _ in true }
        let actions = state.uploadFinished(task: 1, key: key, response: answer, body: Data("ok".utf8))
        #expect(actions.contains(.launchApp(bundleIdentifier: "com.example.game", session: "scores")))
        let waiting = state.record(key)?.waiting ?? []
        #expect(waiting.count == 3 && waiting[1] == .receivedData(taskIdentifier: 1, data: Data("ok".utf8)))
        #expect(state.uploadFinished(task: 1, key: key, response: answer, body: Data()).isEmpty, "a task answers once")
    }

    @Test("An upload request needs a method with a body and a file path; a download still needs GET")
    func requestRefusals() {
        #expect(request.refusal == nil)
        var get = request
        get.httpMethod = "GET"
        #expect(get.refusal?.contains("PUT, POST or PATCH") == true)
        var remote = request
        remote.bodyFile = URL(string: "https://example.com/file")
        #expect(remote.refusal?.contains("not a file path") == true)
        var download = request
        download.bodyFile = nil
        #expect(download.refusal?.contains("download tasks send GET") == true)
    }
}
