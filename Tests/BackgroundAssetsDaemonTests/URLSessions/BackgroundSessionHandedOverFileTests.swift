/*
Abstract:
Tests of the rule for a session's folder: a handed-over file is removed only when no event of its session names it.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Handed-over files of background sessions")
struct BackgroundSessionHandedOverFileTests {
    let key = BackgroundSessionKey(bundleIdentifier: "com.example.game", sessionIdentifier: "game-data")
    let request = BackgroundTaskRequest(url: URL(string: "https://cdn.example.com/game/data.archive")!)
    let file = URL(fileURLWithPath: "/device/containers/game/CFNetworkDownload_1-A.tmp")
    var response: BackgroundTaskResponse { BackgroundTaskResponse(url: request.url, statusCode: 200) }

    /// A state with one running task, its session attached to `connection` or to no process.
    func running(attachedTo connection: UInt64?) -> BackgroundSessionState {
        var state = BackgroundSessionState()
        _ = state.attach(BackgroundSessionSettings(identifier: "game-data"), app: "com.example.game", connection: 7)
        _ = state.makeTask(request, key: key)
        _ = state.resume(task: 1, key: key, earliestBeginDate: nil, expectedBytes: 500, now: Date(timeIntervalSince1970: 1_000_000))
        if connection == nil { _ = state.connectionClosed(7) { _ in true } }
        return state
    }

    @Test("A transfer's end reported twice across a restart (the queue's event, then its row) keeps the file the first handed over",
          arguments: [nil, 7] as [UInt64?])
    func endReportedTwice(connection: UInt64?) {
        var state = running(attachedTo: connection)
        let first = state.transferFinished(task: 1, key: key, file: file, response: response)
        #expect(!first.contains(.removeFile(file)))
        #expect(state.filesNamedByEvents(of: key) == [file.path], "waiting, or sent and not yet handled")

        let second = state.transferFinished(task: 1, key: key, file: file, response: response)
        #expect(!second.contains(.removeFile(file)), "the app is promised this file: \(second)")
        #expect(state.filesNamedByEvents(of: key) == [file.path])
    }

    @Test("A file no task waits for and no event names is removed; once its method returned, the file is the app's no more")
    func unwantedFileRemoved() {
        var state = running(attachedTo: 7)
        let stray = URL(fileURLWithPath: "/device/containers/game/CFNetworkDownload_9-B.tmp")
        #expect(state.transferFinished(task: 9, key: key, file: stray, response: response) == [.removeFile(stray)])

        _ = state.transferFinished(task: 1, key: key, file: file, response: response)
        _ = state.fileHandled(task: 1, key: key)
        #expect(state.filesNamedByEvents(of: key).isEmpty)
        let other = BackgroundSessionKey(bundleIdentifier: "com.example.other", sessionIdentifier: "game-data")
        #expect(state.filesNamedByEvents(of: other).isEmpty, "a session nobody made names nothing")
    }
}
