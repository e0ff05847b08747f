/*
Abstract:
Unit tests of the timeline read from a trace: each download's runs and marks, the device's activity, the device clock.
*/

import BackgroundAssetsIPC
import Foundation
import Testing

@testable import BackgroundAssetsDebugTool

@Suite("Read a trace as a timeline")
struct TimelineTests {
    typealias Script = TraceScript

    @Test("A promoted download has a background run, then a foreground one from the same byte, and ends finished")
    func promotedDownload() throws {
        var script = Script()
        script.at(0, "scheduleReturnedDownloads", to: "backgroundassetsd", detail: "1 scheduled, 0 refused")
        script.at(1, "downloadDidBegin", download: "a", transfer: Script.transfer(0))
        script.at(1.5, TraceEntry.progressEvent, download: "a", transfer: Script.transfer(300_000))
        script.at(2, "startForegroundDownload", from: "app", to: "backgroundassetsd", download: "a", detail: "promoted")
        script.at(2, "downloadDidPause", to: "app", download: "a", transfer: Script.transfer(310_000, foreground: true))
        script.at(2.01, "downloadDidBegin", to: "app", download: "a", transfer: Script.transfer(310_000, foreground: true))
        script.at(2.5, "finishedWithFileURL", to: "app", download: "a", transfer: Script.transfer(1_000_000, foreground: true))
        let lane = try #require(Timeline(entries: script.entries).lanes.first)

        #expect(lane.queuedAt == Script.start, "the extension's batch queued it")
        #expect(lane.runs.map(\.foreground) == [false, true])
        #expect(lane.runs.map { $0.samples.map(\.written) } == [[0, 300_000, 310_000], [310_000, 1_000_000]])
        #expect(lane.marks.map(\.mark) == [.promoted, .finished])
        #expect(lane.outcome == .finished)
        #expect(lane.expected == 1_000_000)
    }

    @Test("A retry, a restart from zero and a failure are marked; an essential failure's reason loses the service's prefix")
    func retriesAndFailures() throws {
        var script = Script()
        script.at(0, "downloadDidBegin", download: "e", transfer: Script.transfer(0, essential: true))
        script.at(1, TraceEntry.progressEvent, download: "e", transfer: Script.transfer(600_000, essential: true))
        script.at(2, TraceEntry.progressEvent, download: "e", transfer: Script.transfer(100_000, essential: true))
        script.at(3, "downloadDidPause", download: "e", detail: "Server error: answered 503", transfer: Script.transfer(100_000, essential: true))
        script.at(4, "downloadDidBegin", download: "e", transfer: Script.transfer(100_000, essential: true))
        script.at(5, "failedWithError", to: "backgroundassetsd", download: "e",
                  detail: "essential; held for the extension: Server error: answered 404", transfer: Script.transfer(100_000, essential: true))
        let lane = try #require(Timeline(entries: script.entries).lanes.first)

        #expect(lane.marks.map(\.mark) == [.restarted, .retry("Server error: answered 503"), .failed("Server error: answered 404")])
        #expect(lane.runs.count == 2)
        #expect(lane.essential)
        #expect(lane.outcome == .failed)
    }

    @Test("A transfer still running when the trace ends stays open up to the trace's end")
    func openRun() throws {
        var script = Script()
        script.at(0, "downloadDidBegin", download: "a", transfer: Script.transfer(0))
        script.at(1, TraceEntry.progressEvent, download: "a", transfer: Script.transfer(200_000))
        script.at(4, "appLaunched", from: "app", to: "backgroundassetsd")
        let timeline = Timeline(entries: script.entries)
        let run = try #require(timeline.lanes.first?.runs.first)
        #expect(run.isOpen)
        #expect(run.end == timeline.end)
        #expect(timeline.lanes.first?.outcome == .transferring)
    }

    @Test("An extension entry point about a download is drawn on the extension's row, not as a lane")
    func entryPointsAreNotLanes() {
        var script = Script()
        script.at(0, "extensionLaunched", to: "extension", detail: "pid 7")
        script.at(0.1, "backgroundDownload(_:finishedWithFileURL:)", to: "extension", download: "a")
        script.at(0.2, "extensionExited", from: "extension", to: "backgroundassetsd", detail: "exited with status 0")
        let timeline = Timeline(entries: script.entries)
        #expect(timeline.lanes.isEmpty)
        let row = timeline.rows.first { $0.kind == .extension }
        #expect(row?.spans.count == 1)
        #expect(row?.moments.map(\.label) == ["backgroundDownload(_:finishedWithFileURL:) a"])
    }

    @Test("An install spans from the tool's request to launchable, with its essential phase inside")
    func installRow() throws {
        var script = Script()
        script.at(0, "install", from: "tool", to: "backgroundassetsd", detail: "version 1")
        script.at(0.1, "contentRequest", to: "backgroundassetsd", detail: "install")
        script.at(0.3, "scheduleReturnedDownloads", to: "backgroundassetsd", detail: "2 scheduled, 0 refused")
        script.at(2, "finishedWithFileURL", to: "backgroundassetsd", download: "a", detail: "essential; held for the extension")
        script.at(3, "finishedWithFileURL", to: "backgroundassetsd", download: "b", detail: "essential; held for the extension")
        script.at(3.5, "appLaunchable", to: "backgroundassetsd")
        let row = try #require(Timeline(entries: script.entries).rows.first { $0.kind == .install })
        let install = try #require(row.spans.first { $0.style == .main })
        let essential = try #require(row.spans.first { $0.style == .emphasis })
        #expect(install.label == "install (version 1)")
        #expect(abs(install.end.timeIntervalSince(install.start) - 3.5) < 0.001)
        #expect(abs(essential.start.timeIntervalSince(Script.start) - 0.3) < 0.001)
        #expect(abs(essential.end.timeIntervalSince(Script.start) - 3) < 0.001)
    }

    @Test("App launches pair by pid, background launches are told apart, and exclusive control spans its holder's turn")
    func appAndControlRows() throws {
        var script = Script()
        script.at(0, "connected", from: "app", to: "backgroundassetsd", detail: "pid 10")
        script.at(0.1, "acquireExclusiveControl", from: "app", to: "backgroundassetsd")
        script.at(0.5, "launchInBackground", to: "app", detail: "pid 20")
        script.at(0.6, "connected", from: "app", to: "backgroundassetsd", detail: "pid 20")
        script.at(0.7, "launchTask", to: "app", detail: "com.example.app.refresh (appRefresh, 30 s)")
        script.at(0.8, "taskCompleted", from: "app", to: "backgroundassetsd", detail: "com.example.app.refresh success true")
        script.at(0.85, "disconnected", from: "app", to: "backgroundassetsd", detail: "pid 20")
        // A background launch ends when its process does, which the service says after its connections.
        script.at(0.9, "backgroundLaunchDone", to: "app", detail: "pid 20")
        script.at(1, "releaseExclusiveControl", from: "app", to: "backgroundassetsd")
        script.at(2, "disconnected", from: "app", to: "backgroundassetsd", detail: "pid 10")
        let rows = Timeline(entries: script.entries).rows
        let app = try #require(rows.first { $0.kind == .app })
        #expect(app.spans.map(\.style) == [.main, .secondary])
        #expect(app.spans.map(\.label) == ["app (pid 10)", "app in the background (pid 20)"])
        #expect(app.spans.map { ($0.end.timeIntervalSince(Script.start) * 10).rounded() } == [20, 9])
        let control = try #require(rows.first { $0.kind == .exclusiveControl }?.spans.first)
        #expect(control.label == "held by the app")
        // The background launch's connection ending does not end the turn of the app that holds control.
        #expect(abs(control.end.timeIntervalSince(control.start) - 0.9) < 0.001)
        let task = try #require(rows.first { $0.kind == .tasks }?.spans.first)
        #expect(abs(task.end.timeIntervalSince(task.start) - 0.1) < 0.001)
    }

    @Test("Device time is interpolated between the entries that recorded it, and the picture says when it differs")
    func deviceClock() {
        var script = Script()
        // timeScale 3600: one real second is one device hour.
        script.at(0, "periodicCheck", to: "backgroundassetsd", deviceTime: Script.start)
        script.at(10, "periodicCheck", to: "backgroundassetsd", deviceTime: Script.start.addingTimeInterval(36_000))
        let timeline = Timeline(entries: script.entries)
        #expect(timeline.deviceTimeDiffers)
        #expect(timeline.deviceTime(at: Script.start.addingTimeInterval(5)) == Script.start.addingTimeInterval(18_000))
        #expect(timeline.rows.first { $0.kind == .periodic }?.moments.count == 2)

        var realTime = Script()
        realTime.at(0, "periodicCheck", to: "backgroundassetsd")
        #expect(!Timeline(entries: realTime.entries).deviceTimeDiffers)
    }

    @Test("The axis folds quiet stretches, keeps time in order, and spaces its labels")
    func axisFoldsQuietStretches() {
        let times = [0, 1, 2, 3, 600, 601].map { TraceScript.start.addingTimeInterval($0) }
        let axis = TimelineAxis(times: times, start: times[0], end: times[5], x0: 100, width: 1000)
        #expect(axis.segments.count == 3)
        #expect(axis.folds.map(\.duration) == [597])
        #expect(axis.folds.map { $0.x1 - $0.x0 } == [TimelineAxis.foldWidth])
        let xs = times.map(axis.x)
        #expect(xs == xs.sorted())
        #expect(xs.first == 100)
        #expect(abs((xs.last ?? 0) - 1100) < 0.001)
        // A moment in the quiet stretch lies in the fold, in order.
        let middle = axis.x(TraceScript.start.addingTimeInterval(300))
        #expect(middle > xs[3] && middle < xs[4])
        for segment in axis.segments where !segment.isFolded {
            let ticks = axis.ticks().filter { $0 >= segment.start && $0 <= segment.end }.map(axis.x)
            #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $1 - $0 >= 110 }, "\(ticks)")
        }
        #expect(!axis.ticks().contains { $0 > times[3] && $0 < times[4] }, "a fold has no ticks of its own scale")
    }
}
