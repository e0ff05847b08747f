/*
Abstract:
Background sessions through the service in the test process: transfers, their events, a session made again, two apps apart, resume data, and waiting for the device.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Background sessions through the service", .serialized, .timeLimit(.minutes(2)))
struct BackgroundSessionServiceTests {
    static let app = "com.example.game"
    static let session = "com.example.game.data"
    static let archive = "/game/GameData-v1.aar"
    static let archiveSize: Int64 = 197_772

    static func completed(_ event: BackgroundSessionEvent) -> Bool {
        if case .completed = event { true } else { false }
    }

    /// Attaches a session, makes a task for the game archive and resumes it.
    private func startDownload(_ client: RawServiceClient, from server: AssetServerProcess,
                               settings: BackgroundSessionSettings = BackgroundSessionSettings(identifier: session),
                               earliestBeginDate: Date? = nil) async throws -> BackgroundTaskSnapshot {
        #expect(try await client.ask(.urlSessions(.attachURLSession(settings: settings))) == .done)
        let request = BackgroundTaskRequest(url: server.url(Self.archive))
        let made = try await client.ask(.urlSessions(.makeURLSessionTask(session: settings.identifier, request: request)))
        guard case let .urlSessionTask(task) = made else { throw TestSupportError("The service did not make the task: \(made).") }
        let resume = BackgroundTaskCommand.resume(earliestBeginDate: earliestBeginDate, countOfBytesClientExpectsToReceive: -1)
        let resumed = try await client.ask(.urlSessions(.changeURLSessionTask(session: settings.identifier, taskIdentifier: task.taskIdentifier, command: resume)))
        #expect(resumed == .resumeData(nil))
        return task
    }

    /// Starts a download, lets it write 16 KiB, then cancels it producing resume data.
    private func cancelProducingResumeData(_ client: RawServiceClient, from server: AssetServerProcess) async throws -> Data {
        let task = try await startDownload(client, from: server)
        try await client.sessionEvents { if case let .wroteData(_, _, total, _) = $0 { total >= 16384 } else { false } }
        let cancel = try await client.ask(.urlSessions(.changeURLSessionTask(session: Self.session, taskIdentifier: task.taskIdentifier,
                                                                command: .cancelProducingResumeData)))
        guard case let .resumeData(data?) = cancel else { throw TestSupportError("no resume data: \(cancel)") }
        return data
    }

    private func archiveBytes(_ server: AssetServerProcess) throws -> Data {
        try Data(contentsOf: server.catalogURL.appending(path: String(Self.archive.dropFirst())))
    }

    private func status(_ tool: RawServiceClient) async throws -> ServiceStatus {
        guard case let .status(status) = try await tool.ask(.core(.fetchStatus)) else { throw TestSupportError("no status") }
        return status
    }

    @Test("A download reaches the process that has the session: progress, the file in the app's folder, then the task's end")
    func eventsInOrder() async throws {
        try await withAssetServer(sessions: 2) { server in
            let device = try await InProcessService()
            let client = try await device.recordingClient()
            let task = try await startDownload(client, from: server)
            let events = try await client.sessionEvents(until: Self.completed)
            guard case let .attached(tasks) = events.first else { throw TestSupportError("attached did not come first") }
            #expect(tasks.isEmpty)
            let progress = events.firstIndex { if case .wroteData = $0 { true } else { false } }
            let finished = events.firstIndex { if case .finishedDownloading = $0 { true } else { false } }
            let completed = events.firstIndex(where: Self.completed)
            guard let progress, let finished, let completed else { throw TestSupportError("missing events: \(events)") }
            #expect(progress < finished && finished < completed)
            guard case let .finishedDownloading(identifier, file, response) = events[finished],
                  case let .completed(snapshot) = events[completed] else { return }
            #expect(identifier == task.taskIdentifier)
            #expect(file.path.hasPrefix(device.paths.appDirectory(forBundleIdentifier: Self.app)!.path))
            #expect(file.lastPathComponent.hasPrefix("CFNetworkDownload_"))
            #expect(try Data(contentsOf: file) == archiveBytes(server))
            #expect(response.statusCode == 200)
            #expect(snapshot.failure == nil && snapshot.state == .completed)
            await device.stop()
        }
    }

    @Test("A process that makes the session again gets the task back and the events that waited for it")
    func madeAgain() async throws {
        try await withAssetServer(sessions: 2, arguments: ["--throttle", "262144"]) { server in
            let device = try await InProcessService()
            let first = try await device.recordingClient()
            let task = try await startDownload(first, from: server)
            first.close()
            // The transfer belongs to the service: it ends with nobody to tell, and waits in the record.
            let tool = try await device.recordingClient("com.example.backgroundassets-debug", role: .tool)
            try await poll(until: { try await status(tool).urlSessions?.first?.waitingEvents == 2 },
                           "the file and the completion kept for the app")
            let second = try await device.recordingClient()
            #expect(try await second.ask(.urlSessions(.attachURLSession(settings: BackgroundSessionSettings(identifier: Self.session)))) == .done)
            let events = try await second.sessionEvents(until: Self.completed)
            guard case let .attached(tasks) = events.first, case let .finishedDownloading(_, file, _) = events.dropFirst().first else {
                throw TestSupportError("expected the task back, then the file: \(events)")
            }
            #expect(tasks.map(\.taskIdentifier) == [task.taskIdentifier])
            #expect(try Data(contentsOf: file) == archiveBytes(server))
            #expect(try await second.ask(.urlSessions(.fetchURLSessionsAwaitingEvents)) == .urlSessionIdentifiers([]), "delivered events wait no more")
            await device.stop()
        }
    }

    @Test("Two apps never see each other's sessions, even with the same identifier")
    func appsApart() async throws {
        try await withAssetServer(sessions: 2, arguments: ["--throttle", "65536"]) { server in
            let device = try await InProcessService()
            let game = try await device.recordingClient()
            let task = try await startDownload(game, from: server)
            let other = try await device.recordingClient("com.example.other")
            #expect(try await other.ask(.urlSessions(.attachURLSession(settings: BackgroundSessionSettings(identifier: Self.session)))) == .done)
            let events = try await other.sessionEvents { if case .attached = $0 { true } else { false } }
            #expect(events.first == .attached(tasks: []))
            let change = try await other.ask(.urlSessions(.changeURLSessionTask(session: Self.session, taskIdentifier: task.taskIdentifier, command: .cancel)))
            guard case let .failure(failure) = change else { throw TestSupportError("another app cancelled the task: \(change)") }
            #expect(failure.message.contains("has no task \(task.taskIdentifier)"))
            // The game's own process may not name a session it has not made either.
            let stranger = try await device.recordingClient()
            let made = try await stranger.ask(.urlSessions(.makeURLSessionTask(
                session: "com.example.game.never", request: BackgroundTaskRequest(url: server.url(Self.archive)))))
            guard case .failure = made else { throw TestSupportError("a task was made in a session nobody made") }
            await device.stop()
        }
    }

    @Test("Cancelling with resume data keeps the bytes, and a task made from it continues at the same offset with Range")
    func resumeData() async throws {
        let log = try TemporaryDirectory(prefix: "session-access-log")
        let accessLog = log.url.appending(path: "access.jsonl")
        try await withAssetServer(sessions: 2, arguments: ["--throttle", "131072", "--access-log", accessLog.path]) { server in
            let device = try await InProcessService()
            let client = try await device.recordingClient()
            let data = try await cancelProducingResumeData(client, from: server)
            let kept = try BackgroundResumeData(decoding: data)
            #expect(kept.bytesReceived > 0 && kept.bytesReceived < Self.archiveSize)
            let cancelled = try await client.sessionEvents(until: Self.completed)
            guard case let .completed(snapshot)? = cancelled.last else { return }
            #expect(snapshot.failure?.error.code == -999)
            #expect(snapshot.failure?.resumeData == data, "the error's user info carries the same resume data")

            let made = try await client.ask(.urlSessions(.makeURLSessionTaskFromResumeData(session: Self.session, resumeData: data)))
            guard case let .urlSessionTask(resumed) = made else { throw TestSupportError("no task from resume data: \(made)") }
            #expect(resumed.countOfBytesReceived == kept.bytesReceived)
            let second = resumed.taskIdentifier
            _ = try await client.ask(.urlSessions(.changeURLSessionTask(session: Self.session, taskIdentifier: second,
                                                           command: .resume(earliestBeginDate: nil, countOfBytesClientExpectsToReceive: -1))))
            let events = try await client.sessionEvents { if case let .completed(s) = $0 { s.taskIdentifier == second } else { false } }
            #expect(events.contains(.resumed(taskIdentifier: second, offset: kept.bytesReceived, expectedTotalBytes: Self.archiveSize)))
            let file = events.compactMap { if case let .finishedDownloading(id, file, _) = $0, id == second { file } else { nil } }.first
            #expect(try file.map { try Data(contentsOf: $0) } == archiveBytes(server), "byte-exact")
            let ranges = try AccessLogEntry.entries(in: accessLog).filter { $0.path == Self.archive }.compactMap(\.range)
            #expect(ranges.contains("bytes=\(kept.bytesReceived)-"), "\(ranges)")
            // Used once: the partial file is gone, and the same data names nothing any more.
            let again = try await client.ask(.urlSessions(.makeURLSessionTaskFromResumeData(session: Self.session, resumeData: data)))
            guard case .failure = again else { throw TestSupportError("resume data was used twice") }
            await device.stop()
        }
    }

    @Test("Resume data that claims more bytes than its partial file holds continues from the bytes held, never past them",
          arguments: [Int64.max, 1 << 40])
    func resumeDataClaimingTooMuch(claimed: Int64) async throws {
        try await withAssetServer(sessions: 2, arguments: ["--throttle", "131072"]) { server in
            let device = try await InProcessService()
            let client = try await device.recordingClient()
            let data = try await cancelProducingResumeData(client, from: server)
            var forged = try BackgroundResumeData(decoding: data)
            let held = forged.bytesReceived
            forged.bytesReceived = claimed
            _ = try await client.sessionEvents(until: Self.completed)

            let made = try await client.ask(.urlSessions(.makeURLSessionTaskFromResumeData(session: Self.session, resumeData: forged.encoded())))
            guard case let .urlSessionTask(resumed) = made else { throw TestSupportError("no task from resume data: \(made)") }
            #expect(resumed.countOfBytesReceived == held, "the app's progress starts at the bytes the file holds")
            let second = resumed.taskIdentifier
            _ = try await client.ask(.urlSessions(.changeURLSessionTask(session: Self.session, taskIdentifier: second,
                                                           command: .resume(earliestBeginDate: nil, countOfBytesClientExpectsToReceive: -1))))
            let events = try await client.sessionEvents { if case let .completed(s) = $0 { s.taskIdentifier == second } else { false } }
            #expect(events.contains(.resumed(taskIdentifier: second, offset: held, expectedTotalBytes: Self.archiveSize)))
            let file = events.compactMap { if case let .finishedDownloading(id, file, _) = $0, id == second { file } else { nil } }.first
            #expect(try file.map { try Data(contentsOf: $0) } == archiveBytes(server), "byte-exact")
            await device.stop()
        }
    }

    @Test("A discretionary session's transfer waits while the device is on battery, and starts when it is plugged in")
    func discretionary() async throws {
        try await withAssetServer(sessions: 2) { server in
            let device = try await InProcessService()
            let tool = try await device.recordingClient("com.example.backgroundassets-debug", role: .tool)
            _ = try await tool.ask(.tool(.updateSettings(SettingsChange(externalPower: false))))
            let client = try await device.recordingClient()
            let settings = BackgroundSessionSettings(identifier: Self.session, isDiscretionary: true)
            _ = try await startDownload(client, from: server, settings: settings)
            let waiting = try await status(tool)
            #expect(waiting.urlSessions?.first?.waitReasons["1"] == "the session is discretionary and the device is on battery")
            #expect(waiting.downloads.isEmpty, "nothing is queued while it waits")
            _ = try await tool.ask(.tool(.updateSettings(SettingsChange(externalPower: true))))
            try await client.sessionEvents(until: Self.completed)
            await device.stop()
        }
    }

    @Test("A transfer with an earliest begin date starts when the device's clock reaches it")
    func earliestBeginDate() async throws {
        try await withAssetServer(sessions: 2) { server in
            let device = try await InProcessService()
            let client = try await device.recordingClient()
            let tool = try await device.recordingClient("com.example.backgroundassets-debug", role: .tool)
            let start = device.clock.now.addingTimeInterval(600)
            _ = try await startDownload(client, from: server, earliestBeginDate: start)
            let waiting = try await poll("the transfer waiting for its date") {
                try await status(tool).downloads.first { $0.nextAttemptAt != nil }
            }
            #expect(waiting.download.kind == .backgroundSession)
            #expect(abs((waiting.nextAttemptAt ?? .distantPast).timeIntervalSince(start)) < 1)
            device.clock.advance(by: .seconds(599))
            #expect(try await status(tool).downloads.first?.download.state == .waiting, "599 s in, it has not started")
            device.clock.advance(by: .seconds(2))
            try await client.sessionEvents(until: Self.completed)
            await device.stop()
        }
    }
}
