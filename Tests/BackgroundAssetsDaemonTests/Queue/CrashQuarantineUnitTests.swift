/*
Abstract:
Tests that a crash marker blames the download whose thread crashed, or every transferring one, and that the third crash sets it aside.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Crash quarantine", .timeLimit(.minutes(1)))
struct CrashQuarantineUnitTests {
    @Test("A marker names the signal and the thread; a transfer's thread names its download")
    func readsMarker() {
        let report = CrashReport(marker: "signal 4\nthread dl-42\n")
        #expect(report == CrashReport(signal: 4, threadName: "dl-42"))
        #expect(report?.rowID == 42)
        #expect(CrashReport(marker: "signal 11\nthread backgroundasset\n")?.rowID == nil)
        #expect(CrashReport(marker: "thread dl-1\n") == nil, "no signal, no marker")
        #expect(CrashReport(marker: "") == nil)
        #expect(CrashReport.threadName(forRow: 999_999_999_999).utf8.count <= 15)
    }

    @Test("A crash on a download's thread counts against that download only")
    func blamesTheCrashingThread() async throws {
        let harness = try QueueHarness()
        let first = try HandedOverAtRestartTests.interruptedDownload(in: harness, identifier: "a", fileSize: 10, handedOverBytes: nil).row
        let second = try HandedOverAtRestartTests.interruptedDownload(in: harness, identifier: "b", fileSize: 10, handedOverBytes: nil).row
        let counted = try harness.store.recordCrash(blaming: second.id)
        #expect(counted.map(\.row.id) == [second.id])
        #expect(counted.map(\.crashes) == [1])
        // A crash on another thread counts against every download in transfer.
        let all = try harness.store.recordCrash(blaming: nil)
        #expect(all.map(\.row.id) == [first.id, second.id])
        #expect(all.map(\.crashes) == [1, 2])
        // A thread named after a download that is not in transfer (it ended meanwhile) blames them all.
        #expect(try harness.store.recordCrash(blaming: 9999).count == 2)
    }

    @Test("The third crash fails the download with the reason, instead of resuming it")
    func quarantinesOnTheThirdCrash() async throws {
        let harness = try QueueHarness()
        let row = try HandedOverAtRestartTests.interruptedDownload(in: harness, fileSize: 10, handedOverBytes: nil).row
        for _ in 1...2 { _ = try harness.store.recordCrash(blaming: row.id) }
        try Data("signal 5\nthread dl-\(row.id)\n".utf8).write(to: harness.paths.crashMarkerFile)
        try await harness.queue.start()
        let stored = try #require(try harness.store.download(id: row.id))
        #expect(stored.state == .failed)
        #expect(stored.lastError?.code == BAError.Code.downloadFailedToStart.rawValue)
        #expect(stored.lastError?.message.contains("quarantined: the service crashed 3 times (last with SIGTRAP") == true)
        #expect(!FileManager.default.fileExists(atPath: harness.paths.crashMarkerFile.path), "the marker is read once")
        #expect(harness.eventNames(of: row.id) == ["failed"])
    }
}
