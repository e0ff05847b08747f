/*
Abstract:
Tests for continued-processing tasks in the service: Apple's admission rules, the queue, and expiration of a stalled task.
*/

import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing

@Suite("Continued-processing tasks")
struct ContinuedProcessingTests {
    static let app = "com.example.sessions"
    static let permission = TaskPermission(
        permittedIdentifiers: ["com.example.sessions.refresh", "com.example.sessions.export.*"], backgroundModes: ["fetch"])

    static func request(_ end: String = "1", strategy: TaskRequestDescriptor.SubmissionStrategy = .queue, resources: Int = 0)
        -> TaskRequestDescriptor
    {
        TaskRequestDescriptor(
            continuedProcessing: "com.example.sessions.export.\(end)", title: "Exporting", subtitle: "0 of 3",
            strategy: strategy, requiredResources: resources)
    }

    static func facts(
        _ request: TaskRequestDescriptor = request(), hasLaunchHandler: Bool = true, isBackgroundLaunch: Bool = false,
        queuedOfApp: Int = 0, queued: Int = 0, running: Int = 0
    ) -> ContinuedProcessingAdmission.Facts {
        .init(
            request: request, bundleIdentifier: app, permission: permission, hasLaunchHandler: hasLaunchHandler,
            isBackgroundLaunch: isBackgroundLaunch, queuedOfApp: queuedOfApp, queued: queued, running: running)
    }

    static func code(_ admission: ContinuedProcessingAdmission) -> Int? {
        if case let .refuse(code, _) = admission { code } else { nil }
    }

    @Test("A request from the foreground with a handler is accepted; each broken rule has Apple's code")
    func admission() {
        #expect(ContinuedProcessingAdmission.of(Self.facts()) == .accept)
        #expect(Self.code(.of(Self.facts(TaskRequestDescriptor(
            continuedProcessing: "com.example.sessions.import.1", title: "", subtitle: "", strategy: .queue, requiredResources: 0)))) == 3)
        #expect(Self.code(.of(Self.facts(Self.request(resources: 1)))) == 3)
        #expect(Self.code(.of(Self.facts(hasLaunchHandler: false))) == 3)
        #expect(Self.code(.of(Self.facts(isBackgroundLaunch: true))) == 1)
        #expect(Self.code(.of(Self.facts(queuedOfApp: 10))) == 2)
    }

    @Test("With the fail strategy a request is refused with immediateRunIneligible when there is no room; queued it waits")
    func strategies() {
        let full = ContinuedProcessingPolicy.maximumRunning
        #expect(Self.code(.of(Self.facts(Self.request(strategy: .fail), running: full))) == 4)
        #expect(Self.code(.of(Self.facts(Self.request(strategy: .fail), queued: 1, running: full - 1))) == 4)
        #expect(ContinuedProcessingAdmission.of(Self.facts(Self.request(strategy: .fail), running: full - 1)) == .accept)
        #expect(ContinuedProcessingAdmission.of(Self.facts(Self.request(strategy: .queue), running: full)) == .accept)
        if case let .refuse(_, message) = ContinuedProcessingAdmission.of(Self.facts(Self.request(resources: 1))) {
            #expect(message.contains("GPU") && message.contains("supportedResources"))
        }
    }

    @Test("The queue starts requests first submitted first, replaces a resubmitted one, and cancels an exited app's")
    func queue() {
        var queue = ContinuedProcessingQueue()
        let now = Date()
        queue.enqueue(.init(bundleIdentifier: Self.app, request: Self.request("a"), connection: 1, submitted: now))
        queue.enqueue(.init(bundleIdentifier: "com.example.other", request: Self.request("b"), connection: 2, submitted: now))
        queue.enqueue(.init(bundleIdentifier: Self.app, request: Self.request("a", strategy: .fail), connection: 1, submitted: now))
        #expect(queue.all.map(\.request.identifier) == ["com.example.sessions.export.a", "com.example.sessions.export.b"])
        #expect(queue.all.first?.request.submissionStrategy == .fail)
        let cancelled = queue.removeConnection(2)
        #expect(cancelled.map(\.bundleIdentifier) == ["com.example.other"])
        #expect(queue.popFirst()?.request.identifier == "com.example.sessions.export.a")
        #expect(queue.popFirst() == nil)
    }

    @Test("Progress gives a running task its time again; a stalled one is due to expire after the stall timeout")
    func stallExpiry() throws {
        var host = TaskHost()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let limit = ContinuedProcessingPolicy.stallTimeout + ContinuedProcessingPolicy.expirationGrace
        let task = host.start(Self.request(), app: Self.app, connection: 7, now: start, limit: limit)
        #expect(task.expiresAt == start.addingTimeInterval(ContinuedProcessingPolicy.stallTimeout))
        #expect(host.runningCount(of: .continuedProcessing) == 1 && host.runningCount(of: .processing) == 0)

        let later = start.addingTimeInterval(40)
        var progress = TaskProgress(completedUnitCount: 1, totalUnitCount: 3, title: "Exporting", subtitle: "1 of 3")
        let recorded = host.recordProgress(progress, taskID: task.taskID, connection: 7, now: later)
        let recordedElsewhere = host.recordProgress(progress, taskID: task.taskID, connection: 8, now: later)
        #expect(recorded && !recordedElsewhere)
        var running = try #require(host.runningTasks.first)
        #expect(running.expiresAt == later.addingTimeInterval(ContinuedProcessingPolicy.stallTimeout))
        #expect(running.deadline == later.addingTimeInterval(limit))
        #expect(running.progress == progress)

        // A new subtitle alone is not progress: the deadline stays.
        progress.subtitle = "still 1 of 3"
        _ = host.recordProgress(progress, taskID: task.taskID, connection: 7, now: later.addingTimeInterval(30))
        running = try #require(host.runningTasks.first)
        #expect(running.expiresAt == later.addingTimeInterval(ContinuedProcessingPolicy.stallTimeout))
        #expect(running.progress?.subtitle == "still 1 of 3")
    }
}
