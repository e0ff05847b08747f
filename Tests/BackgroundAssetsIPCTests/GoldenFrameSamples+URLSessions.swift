/*
Abstract:
One message of every background-session case, each named after the frame file that pins its bytes.
*/

import BackgroundAssetsIPC
import Foundation

extension SampleMessages {
    static let sessionSettings = BackgroundSessionSettings(
        identifier: "com.example.game.data", isDiscretionary: true, sharedContainerIdentifier: "group.com.example.game",
        timeoutIntervalForResource: 86_400)

    static let sessionRequest = BackgroundTaskRequest(
        url: URL(string: "https://cdn.example.com/game/GameData-v2.aar")!, headers: ["X-Game": "2"])

    /// A task that failed with resume data, so the frame pins every field of a snapshot.
    static let sessionTask: BackgroundTaskSnapshot = {
        var task = BackgroundTaskSnapshot(
            taskIdentifier: 3, request: sessionRequest, taskDescription: "game data v2",
            earliestBeginDate: Date(timeIntervalSince1970: 1_800_000_000), countOfBytesClientExpectsToReceive: 25_000_000)
        task.state = .completed
        task.countOfBytesReceived = 1_048_576
        task.countOfBytesExpectedToReceive = 25_167_004
        task.response = BackgroundTaskResponse(
            url: sessionRequest.url, statusCode: 206, headers: ["ETag": "\"v2\"", "Content-Length": "24118428"])
        task.failure = .cancelled(resumeData: Data("resume".utf8), reason: .userForceQuitApplication)
        return task
    }()

    static let backgroundSessionFrames: [GoldenFrame] = {
        let session = sessionSettings.identifier
        let requests: [(String, ClientRequest)] = [
            ("urlSessions.attachURLSession", .urlSessions(.attachURLSession(settings: sessionSettings))),
            ("urlSessions.makeURLSessionTask", .urlSessions(.makeURLSessionTask(session: session, request: sessionRequest))),
            ("urlSessions.makeURLSessionTaskFromResumeData", .urlSessions(.makeURLSessionTaskFromResumeData(session: session, resumeData: Data("resume".utf8)))),
            ("urlSessions.changeURLSessionTask", .urlSessions(.changeURLSessionTask(
                session: session, taskIdentifier: 3,
                command: .resume(earliestBeginDate: Date(timeIntervalSince1970: 1_800_000_000), countOfBytesClientExpectsToReceive: 25_000_000)))),
            ("urlSessions.urlSessionFileHandled", .urlSessions(.urlSessionFileHandled(session: session, taskIdentifier: 3))),
            ("urlSessions.fetchURLSessionsAwaitingEvents", .urlSessions(.fetchURLSessionsAwaitingEvents)),
            ("urlSessions.urlSessionEventsHandled", .urlSessions(.urlSessionEventsHandled(session: session))),
            ("urlSessions.invalidateURLSession", .urlSessions(.invalidateURLSession(session: session, cancellingTasks: true))),
            ("tool.forceQuit", .tool(.forceQuit(bundleIdentifier: "com.example.game"))),
        ]
        let answers: [(String, ServerResponse)] = [
            ("urlSessionTask", .urlSessionTask(sessionTask)),
            ("resumeData", .resumeData(Data("resume".utf8))),
            ("urlSessionIdentifiers", .urlSessionIdentifiers([session])),
        ]
        let events: [(String, BackgroundSessionEvent)] = [
            ("attached", .attached(tasks: [sessionTask])),
            ("resumed", .resumed(taskIdentifier: 3, offset: 1_048_576, expectedTotalBytes: 25_167_004)),
            ("updated", .updated(sessionTask)),
            ("wroteData", .wroteData(taskIdentifier: 3, bytesWritten: 65_536, totalBytesWritten: 1_114_112, totalBytesExpectedToWrite: 25_167_004)),
            ("finishedDownloading", .finishedDownloading(
                taskIdentifier: 3, file: URL(fileURLWithPath: "/device/apps/com.example.game/Data/Library/Caches/CFNetworkDownload_12.tmp"),
                response: BackgroundTaskResponse(url: sessionRequest.url, statusCode: 200))),
            ("completed", .completed(sessionTask)),
            ("challenge", .challenge(taskIdentifier: 3, challengeID: 17, challenge)),
            ("waitingEventsDelivered", .waitingEventsDelivered),
            ("sentBodyData", .sentBodyData(taskIdentifier: 4, bytesSent: 131_072, totalBytesSent: 262_144, totalBytesExpectedToSend: 300_000)),
            ("receivedData", .receivedData(taskIdentifier: 4, data: Data(#"{"name":"scores.json"}"#.utf8))),
        ]
        return requests.map { GoldenFrame(request: $0.1, named: $0.0) }
            + answers.map { GoldenFrame(server: .response(id: 42, response: $0.1), named: "response.\($0.0)") }
            + events.map {
                GoldenFrame(server: .event(.urlSessionEvent(session: session, event: $0.1)), named: "event.urlSessionEvent.\($0.0)")
            }
            + [GoldenFrame(server: .event(.urlSessionDetached(session: session)), named: "event.urlSessionDetached")]
    }()
}
