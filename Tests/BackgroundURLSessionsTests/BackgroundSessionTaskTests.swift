/*
Abstract:
Tests of a background session's tasks: identifiers, progress, files, resume data and the refusals Apple makes.
*/

import BackgroundAssetsIPC
@testable import BackgroundURLSessions
import Synchronization
import TestSupport
import Testing

@Suite("Background session tasks")
struct BackgroundSessionTaskTests {
    let system: InMemoryURLSessionSystem
    let app = "com.example.game"

    init() throws {
        system = try InMemoryURLSessionSystem()
    }

    func session(_ identifier: String = "game-data", delegate: RecordingDelegate, app: String? = nil) -> URLSession {
        let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
        configuration.isDiscretionary = true
        configuration.sessionSendsLaunchEvents = true
        return BackgroundURLSession(configuration: configuration, delegate: delegate, delegateQueue: nil,
                                    service: system.client(app: app ?? self.app))
    }

    @Test("The configuration keeps the background settings and Apple's defaults")
    func configuration() {
        let configuration = URLSessionConfiguration.background(withIdentifier: "game-data")
        #expect(configuration.identifier == "game-data")
        #expect(configuration.sessionSendsLaunchEvents)
        #expect(!configuration.isDiscretionary)
        #expect(configuration.timeoutIntervalForResource == 604_800)
        configuration.sharedContainerIdentifier = "group.com.example.game"
        let copy = configuration.copy() as? BackgroundURLSessionConfiguration
        #expect(copy?.sharedContainerIdentifier == "group.com.example.game")
        #expect(copy?.identifier == "game-data")
    }

    @Test("The unchanged initialiser line returns the system's session for a background configuration")
    func initialiserReturnsSystemSession() async throws {
        let configuration = URLSessionConfiguration.background(withIdentifier: "game-data")
        // The test's system, not the device's: a real service would start in the working copy's .device/.
        let made = BackgroundURLSessionSystem.using(system.client(app: app)) {
            URLSession(configuration: configuration, delegate: nil, delegateQueue: nil)
        }
        #expect(made is BackgroundURLSession)
        made.downloadTask(with: URL(string: "https://cdn.example.com/game/data.archive")!).resume()
        try await poll(until: { system.tasks(app: app, session: "game-data")[1] != nil },
                       "the task reaching the system the session was made with")
        #expect(!(URLSession(configuration: .default) is BackgroundURLSession))
    }

    @Test("Tasks get identifiers, report progress, hand over their file and complete, in that order")
    func downloadLifecycle() async throws {
        let delegate = RecordingDelegate()
        let session = session(delegate: delegate)
        let task = session.downloadTask(with: URL(string: "https://cdn.example.com/game/data.archive")!)
        let second = session.downloadTask(with: URLRequest(url: URL(string: "https://cdn.example.com/game/version.json")!))
        #expect(task.taskIdentifier == 1)
        #expect(second.taskIdentifier == 2)
        #expect(task.state == .suspended)
        task.taskDescription = "game data"
        task.earliestBeginDate = Date(timeIntervalSince1970: 1_000)
        task.countOfBytesClientExpectsToReceive = 500 * 1024
        task.resume()
        #expect(task.state == .running)
        try await poll(until: { system.commands(app: app, session: "game-data").count == 2 }, "the description and resume")
        let commands = system.commands(app: app, session: "game-data").map(\.1)
        // Typed apart from #expect, whose expansion made this literal slow to type-check.
        let expected: [BackgroundTaskCommand] = [
            .describe("game data"),
            .resume(earliestBeginDate: Date(timeIntervalSince1970: 1_000), countOfBytesClientExpectsToReceive: 512_000),
        ]
        #expect(commands == expected)

        system.progress(app: app, session: "game-data", task: 1, written: 4, total: 9)
        let file = try system.finish(app: app, session: "game-data", task: 1, contents: "game data")
        try await poll(until: { delegate.calls.count == 3 }, "three delegate calls")
        #expect(delegate.calls == ["wrote 1 4/9", "finished 1 200", "completed 1 ok"])
        #expect(delegate.files[1] == "game data")
        #expect(!FileManager.default.fileExists(atPath: file.path), "the file is deleted once the delegate returns")
        #expect(task.state == .completed)
        #expect(task.countOfBytesReceived == 4)
        try await poll(until: { system.handledFiles(app: app, session: "game-data") == [1] }, "the file acknowledged")
        let remaining = await session.allTasks.map(\.taskIdentifier)
        #expect(remaining == [2], "a completed task leaves the list")
    }

    @Test("Cancelling with resume data gives data that continues from the same offset")
    func resumeDataRoundTrip() async throws {
        let delegate = RecordingDelegate()
        let session = session(delegate: delegate)
        let task = session.downloadTask(with: URL(string: "https://cdn.example.com/game/data.archive")!)
        task.resume()
        system.progress(app: app, session: "game-data", task: 1, written: 1_000, total: 4_000)
        let resumeData: Data? = await withCheckedContinuation { continuation in
            task.cancel(byProducingResumeData: { continuation.resume(returning: $0) })
        }
        let data = try #require(resumeData)
        let decoded = try BackgroundResumeData(decoding: data)
        #expect(decoded.bytesReceived == 1_000)
        #expect(decoded.request.url.absoluteString == "https://cdn.example.com/game/data.archive")
        try await poll(until: { delegate.calls.contains("completed 1 -999") }, "the cancellation delivered")
        #expect(delegate.completionError?.userInfo[URLSessionDownloadTaskResumeData] as? Data == data,
                "the error carries the resume data where Apple puts it")

        let resumed = session.downloadTask(withResumeData: data)
        #expect(resumed.taskIdentifier == 2)
        #expect(resumed.countOfBytesReceived == 1_000)
    }

    @Test("Resume data that is not resume data fails the task with the reason")
    func badResumeData() async throws {
        let delegate = RecordingDelegate()
        let session = session(delegate: delegate)
        let task = session.downloadTask(withResumeData: Data("not a property list".utf8))
        task.resume()
        try await poll(until: { delegate.completionError != nil }, "the refusal")
        #expect(delegate.completionError?.localizedDescription.contains("is not a property list") == true)
        #expect(task.state == .completed)
    }

    @Test("Data tasks and completion-handler tasks are refused with Apple's reason")
    func refusals() async throws {
        let delegate = RecordingDelegate()
        let session = session(delegate: delegate)
        let dataTask = session.dataTask(with: URL(string: "https://cdn.example.com/version.json")!)
        dataTask.resume()
        try await poll(until: { delegate.completionError != nil }, "the data task's refusal")
        #expect(delegate.completionError?.localizedDescription.hasPrefix("Data tasks are not supported in background sessions") == true)

        let handled = Mutex<String?>(nil)
        let download = session.downloadTask(with: URL(string: "https://cdn.example.com/a")!) { _, _, error in
            handled.withLock { $0 = error?.localizedDescription }
        }
        download.resume()
        let reason = try await poll("the handler's refusal") { handled.withLock { $0 } }
        #expect(reason == "Completion handler blocks are not supported in background sessions. Use a delegate instead.")
        #expect(system.warnings.count == 2, "each refusal said once, when the task was made: \(system.warnings)")
        #expect(system.warnings.last == reason)
        #expect(system.tasks(app: app, session: "game-data").isEmpty, "nothing refused reached the system")
    }

    @Test("A URL that is not http or https completes with the reason when resumed")
    func unsupportedURL() async throws {
        let delegate = RecordingDelegate()
        let task = session(delegate: delegate).downloadTask(with: URL(fileURLWithPath: "/etc/passwd"))
        task.resume()
        try await poll(until: { delegate.completionError != nil }, "the refusal")
        #expect(delegate.completionError?.localizedDescription.contains("only http and https") == true)
    }
}

@Suite("Code written from Apple's article")
struct ArticleStyleCodeTests {
    /// Only the configuration: making the session connects to the device's service, which a unit
    /// test must not start. `url-session-test-app` makes its session with the article's line, and
    /// the end-to-end tests run it against a service of their own.
    @Test("The article's unchanged configuration lines make the system's background configuration, with its settings")
    func articleConfiguration() {
        let config = URLSessionConfiguration.background(withIdentifier: "MySession")
        config.isDiscretionary = true
        config.sessionSendsLaunchEvents = true
        #expect(config.settings.identifier == "MySession")
        #expect(config.settings.isDiscretionary)
        #expect(config.settings.sendsLaunchEvents)
        // The article's downloader compiles unchanged (ArticleStyleCode.swift); its session is lazy.
        _ = ArticleDownloader(documentsURL: URL(fileURLWithPath: NSTemporaryDirectory()))
    }
}
