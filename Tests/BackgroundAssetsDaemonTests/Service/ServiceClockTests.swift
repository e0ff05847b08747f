/*
Abstract:
Tests that the service's deadlines and idle exit run on its clock, and that stopping it leaves nothing running.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("The service on a manual clock", .serialized, .timeLimit(.minutes(3)))
struct ServiceClockTests {
    static let app = "com.example.in-process"

    @Test("An exclusive-control deadline passes when the clock passes it, not before, with no real wait")
    func exclusiveControlDeadline() async throws {
        let device = try await InProcessService()
        let holder = try await device.client()
        let waiter = try await device.client()
        guard case .exclusiveControlGranted = try await holder.ask(.downloads(.acquireExclusiveControl(deadline: nil))) else {
            Issue.record("the first client did not get exclusive control"); return
        }
        let deadline = device.clock.now.addingTimeInterval(30)
        let request = try waiter.post(.downloads(.acquireExclusiveControl(deadline: deadline)))
        try await device.waitForTimers()
        device.clock.advance(by: .seconds(29))
        #expect(device.clock.sleeperCount >= 1, "29 s in, the deadline has not passed")
        device.clock.advance(by: .seconds(2))
        guard case let .failure(failure) = try await waiter.answer(to: request) else {
            Issue.record("the waiter was not refused at its deadline"); return
        }
        #expect(failure.message.contains("was not acquired before"), "\(failure.message)")
        await device.stop()
    }

    @Test("The service becomes idle once idleExitAfter has passed on its clock with nobody connected")
    func idleExit() async throws {
        let device = try await InProcessService { $0.idleExitAfter = 600 }
        #expect(await !device.service.isIdle())
        device.clock.advance(by: .seconds(599))
        #expect(await !device.service.isIdle())
        device.clock.advance(by: .seconds(2))
        #expect(await device.service.isIdle())
        do {
            let client = try await device.client()
            _ = client
            // A connected client keeps the service up, however long it has been.
            try await poll(until: { await device.service.clientCount == 1 }, "the client")
            device.clock.advance(by: .seconds(3600))
            #expect(await !device.service.isIdle())
        }
        await device.stop()
    }

    @Test("Stopping the service stops every timer, watcher, loop and client it runs")
    func stopLeavesNothingRunning() async throws {
        let device = try await InProcessService()
        let holder = try await device.client()
        let waiter = try await device.client()
        _ = try await holder.ask(.downloads(.acquireExclusiveControl(deadline: nil)))
        _ = try waiter.post(.downloads(.acquireExclusiveControl(deadline: device.clock.now.addingTimeInterval(60))))
        try await device.waitForTimers()
        #expect(device.service.activities.runningNames.contains("exclusive-control deadline"))
        #expect(device.service.activities.runningNames.contains("queue events"))
        await device.stop()
        #expect(device.service.activities.runningNames == [], "still running after stop")
        #expect(device.clock.sleeperCount == 0, "a timer still waits on the clock")
        // Nothing starts after a stop.
        device.service.activities.run("late") {}
        #expect(device.service.activities.runningNames == [])
    }

    @Test("Stopping the service ends the extension it launched")
    func stopEndsChildProcesses() async throws {
        let device = try await InProcessService()
        // Nothing answers at this manifest URL: the extension is launched to hear that it failed.
        let fixture = AppBundleFixture(manifestURL: URL(string: "http://127.0.0.1:9/manifest.json")!)
        let plists = try fixture.write(in: device.root.url.appending(path: "bundle"))
        let tool = try await device.client("com.example.backgroundassets-debug", role: .tool)
        let request = InstallRequest(
            appPlistPath: plists.app.path, extensionPlistPath: plists.extension.path,
            executablesDirectory: ProductsDirectory.url().path)
        guard case .app = try await tool.ask(.tool(.install(request))) else {
            Issue.record("the install was refused"); return
        }
        // The extension is not ended by the service's idle timer: that runs on the clock nobody advances.
        let pid = try await poll("the extension's launch") { () -> Int32? in
            let trace = TraceEntry.entries(in: (try? Data(contentsOf: device.paths.traceFile)) ?? Data())
            return trace.last { $0.event == "extensionLaunched" }?.detail.flatMap { Int32($0.dropFirst("pid ".count)) }
        }
        #expect(isProcessAlive(pid))
        await device.stop()
        try await poll(until: { !isProcessAlive(pid) }, "the extension \(pid) to end")
        #expect(device.service.activities.runningNames == [])
        // An activity that was still running when the stop began launches nothing that would outlive it.
        await device.service.launchAppInBackground(fixture.bundleIdentifier)
        #expect(await device.service.tasks.host.backgroundLaunch(of: fixture.bundleIdentifier) == nil)
        let installed = try #require(await device.service.registry.app(fixture.bundleIdentifier))
        await #expect(throws: ServiceStopping.self) { try await device.service.launchExtension(of: installed) }
    }


    @Test("A periodic check runs when the service's clock reaches the time the schedule gives, not before")
    func periodicCheckOnTheClock() async throws {
        let device = try await InProcessService()
        let fixture = AppBundleFixture(manifestURL: URL(string: "http://127.0.0.1:9/manifest.json")!)
        let plists = try fixture.write(in: device.root.url.appending(path: "bundle"))
        let tool = try await device.client("com.example.backgroundassets-debug", role: .tool)
        _ = try await tool.ask(.tool(.install(InstallRequest(
            appPlistPath: plists.app.path, extensionPlistPath: plists.extension.path,
            executablesDirectory: ProductsDirectory.url().path))))
        let status = try await poll("the install to end") { () -> AppStatus? in
            guard case let .status(status) = try await tool.ask(.core(.fetchStatus)),
                let app = status.apps.first, app.state == .launchable, app.nextPeriodicCheck != nil
            else { return nil }
            return app
        }
        let due = try #require(status.nextPeriodicCheck)
        let periodicChecks = { () -> Int in
            TraceEntry.entries(in: (try? Data(contentsOf: device.paths.traceFile)) ?? Data()).filter { $0.event == "periodicCheck" }.count
        }
        try await device.waitForTimers()
        // Device time runs at real speed here: the check is due `due - now` seconds of the clock away.
        let wait = due.timeIntervalSince(device.clock.now)
        #expect(wait > 60, "an app never launched is checked rarely (due in \(wait) s)")
        device.clock.advance(by: .seconds(fractional: wait - 30))
        #expect(periodicChecks() == 0)
        device.clock.advance(by: .seconds(31))
        try await poll(until: { periodicChecks() == 1 }, "the periodic check")
        await device.stop()
    }

}

extension BackgroundAssetsService {
    /// Asks the extension host for a launch on the service's executor, as the service itself does.
    fileprivate func launchExtension(of installed: InstalledApp) throws {
        try extensionHost.launch(installed)
    }
}
