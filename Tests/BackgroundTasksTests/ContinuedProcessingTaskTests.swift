/*
Abstract:
Tests of continued-processing tasks in the scheduler: Apple's rules for submitting, and progress reported while they run.
*/

@testable import BackgroundTasks
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("BGContinuedProcessingTask")
struct ContinuedProcessingTaskTests {
    static let app = "com.example.sessions"
    static let export = "com.example.sessions.export.7F3A"

    let transport = FakeTaskTransport()

    func makeScheduler(isBackgroundLaunch: Bool = false) -> BGTaskScheduler {
        BGTaskScheduler(
            environment: TaskSchedulerEnvironment(
                transport: transport, isExtension: false,
                permission: TaskPermission(
                    permittedIdentifiers: ["com.example.sessions.refresh", "com.example.sessions.export.*"],
                    backgroundModes: ["fetch"]),
                report: { _ in }, bundleIdentifier: Self.app, isBackgroundLaunch: isBackgroundLaunch))
    }

    func submitError(_ scheduler: BGTaskScheduler, _ request: BGTaskRequest) throws -> BGTaskScheduler.Error {
        try #require(throws: BGTaskScheduler.Error.self) { try scheduler.submit(request) }
    }

    @Test("Apple's constants: the error domain, no resources beyond the default, the queue strategy by default")
    func constants() throws {
        #expect(BGTaskScheduler.errorDomain == "BGTaskSchedulerErrorDomain")
        #expect(BGTaskScheduler.supportedResources.isEmpty)
        #expect(BGContinuedProcessingTaskRequest.Resources.gpu.rawValue == 1)
        #expect(BGContinuedProcessingTaskRequest.SubmissionStrategy.fail.rawValue == 0)
        let request = BGContinuedProcessingTaskRequest(identifier: Self.export, title: "Exporting", subtitle: "0 of 3")
        #expect(request.strategy == .queue && request.requiredResources.isEmpty)
        request.strategy = .fail
        let copy = try #require(request.copy() as? BGContinuedProcessingTaskRequest)
        #expect(copy.title == "Exporting" && copy.subtitle == "0 of 3" && copy.strategy == .fail)
    }

    @Test("A handler registered after launch, then a request with its title, strategy and resources reaches the system")
    func submitsAfterRegistering() throws {
        let scheduler = makeScheduler()
        try scheduler.submit(BGAppRefreshTaskRequest(identifier: "com.example.sessions.refresh"))  // launch is over
        #expect(scheduler.register(forTaskWithIdentifier: Self.export, using: nil) { _ in })
        let request = BGContinuedProcessingTaskRequest(identifier: Self.export, title: "Exporting", subtitle: "0 of 3")
        request.strategy = .fail
        try scheduler.submit(request)
        let sent = try #require(transport.state.withLock { $0.submitted.last })
        #expect(sent.kind == .continuedProcessing && sent.title == "Exporting" && sent.subtitle == "0 of 3")
        #expect(sent.submissionStrategy == .fail && sent.requiredResources == 0)
    }

    @Test("Refused: no handler, the GPU, an identifier no prefix.* entry matches, and a background launch")
    func refusals() throws {
        let scheduler = makeScheduler()
        let request = BGContinuedProcessingTaskRequest(identifier: Self.export, title: "Exporting", subtitle: "")
        let unregistered = try submitError(scheduler, request)
        #expect(unregistered.code == .notPermitted && unregistered.message.contains("No launch handler"))

        scheduler.register(forTaskWithIdentifier: "com.example.sessions.export.*", using: nil) { _ in }
        request.requiredResources = .gpu
        let gpu = try submitError(scheduler, request)
        #expect(gpu.code == .notPermitted && gpu.message.contains("supportedResources"))

        let unmatched = try submitError(
            scheduler, BGContinuedProcessingTaskRequest(identifier: "com.example.sessions.import.1", title: "", subtitle: ""))
        #expect(unmatched.code == .notPermitted && unmatched.message.contains(".*"))

        let background = makeScheduler(isBackgroundLaunch: true)
        background.register(forTaskWithIdentifier: Self.export, using: nil) { _ in }
        let fromBackground = try submitError(
            background, BGContinuedProcessingTaskRequest(identifier: Self.export, title: "", subtitle: ""))
        #expect(fromBackground.code == .unavailable && fromBackground.message.contains("foreground"))
        #expect(transport.state.withLock { $0.submitted.isEmpty })
    }

    @Test("A running task reports its progress and title as they change, the last before its completion")
    func reportsProgress() async throws {
        let scheduler = makeScheduler()
        let started = Locked<BGContinuedProcessingTask?>(nil)
        scheduler.register(forTaskWithIdentifier: "com.example.sessions.export.*", using: nil) { task in
            started.withLock { $0 = task as? BGContinuedProcessingTask }
        }
        transport.launch(
            5,
            TaskRequestDescriptor(continuedProcessing: Self.export, title: "Exporting", subtitle: "0 of 3", strategy: .queue, requiredResources: 0))
        let task = try await poll { started.withLock { $0 } }
        #expect(task.identifier == Self.export && task.title == "Exporting" && task.subtitle == "0 of 3")

        task.progress.totalUnitCount = 3
        task.progress.completedUnitCount = 1
        _ = try await poll { reports(5).last { $0.completedUnitCount == 1 && $0.totalUnitCount == 3 } }
        task.updateTitle("Exporting sessions", subtitle: "2 of 3")
        task.progress.completedUnitCount = 3
        task.setTaskCompleted(success: true)
        let last = try #require(reports(5).last)
        #expect(last == TaskProgress(completedUnitCount: 3, totalUnitCount: 3, title: "Exporting sessions", subtitle: "2 of 3"))
        #expect(transport.completion(of: 5) == true)
    }

    private func reports(_ taskID: UInt64) -> [TaskProgress] {
        transport.state.withLock { $0.progress[taskID] ?? [] }
    }
}
