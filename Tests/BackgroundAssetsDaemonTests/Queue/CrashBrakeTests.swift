/*
Abstract:
Tests that crashes no download explains pause the queue's transfers after five within ten minutes, say why, and end the pause on time.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Pause the work after repeated crashes", .timeLimit(.minutes(3)))
struct CrashBrakeTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("Five crashes within ten minutes pause the work until ten minutes after the last; fewer, or spread out, do not")
    func fiveWithinTheWindow() throws {
        var brake = CrashBrake()
        for minute in 0..<4 { brake.record(at: start.addingTimeInterval(Double(minute) * 60)) }
        #expect(brake.pause(at: start.addingTimeInterval(180), lastCrash: nil) == nil, "four crashes")
        let last = start.addingTimeInterval(240)
        brake.record(at: last)
        let crash = CrashReport(signal: SIGSEGV, threadName: "backgroundasset")
        let pause = try #require(brake.pause(at: last, lastCrash: crash))
        #expect(pause.until == last.addingTimeInterval(CrashBrake.window))
        #expect(pause.reason.contains("crashed 5 times in 4 minute(s) (last with SIGSEGV on thread backgroundasset)"))
        #expect(pause.reason.contains("reset --yes"), "the reason says how to end it")
        #expect(brake.pause(at: last.addingTimeInterval(CrashBrake.window), lastCrash: crash) == nil, "the pause has passed")

        var spread = CrashBrake()
        for step in 0..<6 { spread.record(at: start.addingTimeInterval(Double(step) * 200)) }
        #expect(spread.crashes.count == 3, "only the crashes within the window are kept")
        #expect(spread.pause(at: start.addingTimeInterval(1000), lastCrash: nil) == nil)
    }

    @Test("The record survives a restart; a damaged or oversized one is an empty record")
    func recordOnDisk() throws {
        let folder = try TemporaryDirectory(prefix: "crash-brake")
        let file = folder.url.appending(path: "crash-history")
        var brake = CrashBrake()
        brake.record(at: start)
        brake.record(at: start.addingTimeInterval(1.5))
        #expect(brake.save(to: file) == nil)
        #expect(CrashBrake.load(from: file) == brake)
        try Data("not a time\nnan\n-inf\n".utf8).write(to: file)
        #expect(CrashBrake.load(from: file).crashes.isEmpty)
        try Data(repeating: 0x31, count: 10_000).write(to: file)
        #expect(CrashBrake.load(from: file).crashes.isEmpty)
    }

    @Test("A fifth crash no download explains starts the queue paused: nothing transfers until the pause ends, and it says why")
    func queueStartsPaused() async throws {
        let clock = ManualClock()
        let harness = try QueueHarness(clock: clock)
        let earlier = CrashBrake(crashes: (1...4).map { clock.now.addingTimeInterval(-Double($0) * 60) }.reversed())
        #expect(earlier.save(to: harness.paths.crashHistoryFile) == nil)
        try Data("signal 11\nthread backgroundasset\n".utf8).write(to: harness.paths.crashMarkerFile)
        try await harness.queue.start()
        let reason = try #require(harness.queue.pausedWorkReason)
        #expect(reason.contains("crashed 5 times"))
        #expect(CrashBrake.load(from: harness.paths.crashHistoryFile).crashes.count == 5)

        // Nothing listens on port 9: a transfer that started would say "began" at once.
        let row = try await harness.schedule(try #require(URL(string: "http://127.0.0.1:9/a.mp4")), fileSize: 10, foreground: true)
        try await harness.waitForTimers("the end of the pause") { deadlines in
            deadlines.contains { $0 > .seconds(590) && $0 <= .seconds(601) }
        }
        #expect(harness.eventNames(of: row.id).isEmpty, "the download waits while the work is paused")

        clock.advance(by: .seconds(CrashBrake.window + 1))
        try await poll(until: { harness.eventNames(of: row.id).contains("began") },
                       "the download to start once the pause ended")
        #expect(harness.queue.pausedWorkReason == nil)
    }

    @Test("A crash after a quiet spell does not pause anything")
    func singleCrash() async throws {
        let harness = try QueueHarness(clock: ManualClock())
        try Data("signal 11\nthread backgroundasset\n".utf8).write(to: harness.paths.crashMarkerFile)
        try await harness.queue.start()
        #expect(harness.queue.pausedWorkReason == nil)
        #expect(CrashBrake.load(from: harness.paths.crashHistoryFile).crashes.count == 1)
    }
}
