/*
Abstract:
Tests that a Background Tasks request starts at its earliest begin date, expires before its runtime limit and ends at it, on the service's clock.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Background Tasks on a manual clock", .serialized, .timeLimit(.minutes(3)))
struct TaskTimelineClockTests {
    static let refresh = "com.example.lifecycle-test.refresh"
    /// The task app registers this handler too at every launch; permitted, so it says nothing of it.
    static let cleanup = "com.example.lifecycle-test.cleanup"

    @Test("A refresh task starts at its earliest begin date, is told to expire 5 s before its limit, and ends at it")
    func refreshTimeline() async throws {
        try await InProcessService.with({ $0.appRefreshRuntimeLimit = 30 }) { device in
            let app = try await device.installTestApp { bundle in
                bundle.appExecutable = "task-test-app"
                bundle.permittedTaskIdentifiers = [Self.refresh, Self.cleanup]
                bundle.backgroundModes = ["fetch"]
            }
            defer { app.manifestServer.stop() }
            _ = try await device.waitForAppStatus(app, "the install's end") { $0.state == .launchable ? $0 : nil }
            // The task app, launched in the background when the task is due, never completes it.
            let container = try #require(device.paths.container(forAppGroup: app.fixture.appGroupIdentifier))
            try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
            try Data("hang".utf8).write(to: container.appending(path: "task-behaviour"))
            // The app submits and leaves the foreground: tasks run while it is in the background.
            let client = try await device.client(app.bundleIdentifier, role: .app)
            let request = TaskRequestDescriptor(
                identifier: Self.refresh, kind: .appRefresh, earliestBeginDate: Date(timeIntervalSinceNow: 300))
            guard case .done = try await client.ask(.tasks(.submitTaskRequest(request))) else {
                Issue.record("the request was refused"); return
            }
            // The service kills the background launch at the task's limit, or when it stops.
            client.close()

            // 300 s from when the service read the request, on the app's wall clock: a hair less from here.
            let due = try await device.waitForDeadline("the earliest begin date") { $0 > .seconds(290) && $0 <= .seconds(300) }
            try await device.expectNothing("launchTask", after: due - .seconds(1), leaving: .seconds(1))
            device.clock.advance(by: .seconds(2))
            try await device.waitForTrace("the task's start") { $0.event == "launchTask" }

            // The expiration handler runs 5 s before the 30 s limit, and the limit ends the task.
            try await device.waitForDeadline("the expiration") { InProcessService.isNear($0, .seconds(25)) }
            try await device.expectNothing("expireTask", after: .seconds(24), leaving: .seconds(1))
            device.clock.advance(by: .seconds(2))
            try await device.waitForTrace("the expiration") { $0.event == "expireTask" }

            try await device.waitForDeadline("the limit") { InProcessService.isNear($0, .seconds(4)) }
            try await device.expectNothing("taskEnded", after: .seconds(3), leaving: .seconds(1))
            device.clock.advance(by: .seconds(2))
            // The app was launched only for the task: the limit ends it with the task.
            let ended = try await device.waitForTrace("the task's end") { $0.event == "taskKilled" }
            #expect(ended.detail?.contains("ran past its 30 s runtime limit") == true, "\(ended)")
        }
    }
}
