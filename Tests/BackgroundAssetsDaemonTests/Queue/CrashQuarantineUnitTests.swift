/*
Abstract:
Tests that a crash marker blames the download whose thread crashed (transferring or unpacking) and no other, and that the third crash sets it aside.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import Testing
import TestSupport

@Suite("Crash quarantine", .timeLimit(.minutes(3)))
struct CrashQuarantineUnitTests {
    @Test("A marker names the signal and the thread; a transfer's or an unpack's thread names its download")
    func readsMarker() {
        let report = CrashReport(marker: "signal 4\nthread dl-42\n")
        #expect(report == CrashReport(signal: 4, threadName: "dl-42"))
        #expect(report?.rowID == 42)
        #expect(report?.blamed?.phase == .transfer)
        #expect(CrashReport(marker: "signal 5\nthread up-7\n")?.blamed?.phase == .unpack)
        #expect(CrashReport(marker: "signal 5\nthread up-7\n")?.rowID == 7)
        for thread in ["backgroundasset", "transfer", "dl-", "dl-0", "dl-x1", "up--3", "dl-99999999999999999999"] {
            #expect(CrashReport(marker: "signal 11\nthread \(thread)\n")?.rowID == nil, "\(thread)")
        }
        #expect(CrashReport(marker: "thread dl-1\n") == nil, "no signal, no marker")
        #expect(CrashReport(marker: "") == nil)
        for phase in CrashReport.Phase.allCases {
            let name = CrashReport.threadName(forRow: 999_999_999_999, phase: phase)
            #expect(name.utf8.count <= 15)
            #expect(CrashReport(signal: 11, threadName: name).blamed?.phase == phase)
        }
    }

    @Test("A crash on a download's thread counts against that download only; a thread that named none blames none")
    func blamesTheCrashingThread() async throws {
        let harness = try QueueHarness()
        let first = try HandedOverAtRestartTests.interruptedDownload(in: harness, identifier: "a", fileSize: 10, handedOverBytes: nil).row
        let second = try HandedOverAtRestartTests.interruptedDownload(in: harness, identifier: "b", fileSize: 10, handedOverBytes: nil).row
        let counted = try harness.store.recordCrash(blaming: second.id)
        #expect(counted?.row.id == second.id)
        #expect(counted?.crashes == 1)
        #expect(try harness.store.recordCrash(blaming: 9999) == nil, "a download no longer in the queue")
        // The service's own thread crashed: neither download in transfer is at fault.
        try Data("signal 11\nthread backgroundasset\n".utf8).write(to: harness.paths.crashMarkerFile)
        try await harness.queue.start()
        #expect(try harness.store.recordCrash(blaming: first.id)?.crashes == 1, "the first download was not counted")
        #expect(try harness.store.recordCrash(blaming: second.id)?.crashes == 2)
    }

    @Test("A pack that crashes the service while it unpacks is counted though finished, and set aside at the third crash")
    func quarantinesAnUnpack() async throws {
        let harness = try QueueHarness()
        let row = try HandedOverAtRestartTests.interruptedDownload(in: harness, fileSize: 10, handedOverBytes: nil).row
        // A pack's row stays finished while its archive is unpacked.
        try harness.store.update(id: row.id, at: .now) { $0.state = .finished }
        for _ in 1...2 { _ = try harness.store.recordCrash(blaming: row.id) }
        try Data("signal 5\nthread up-\(row.id)\n".utf8).write(to: harness.paths.crashMarkerFile)
        try await harness.queue.start()
        let stored = try #require(try harness.store.download(id: row.id))
        #expect(stored.state == .failed)
        #expect(stored.lastError?.message.contains("crashed 3 times (last with SIGTRAP (a Swift runtime trap)) while unpacking") == true,
                "\(stored.lastError?.message ?? "")")
        #expect(try harness.store.recordCrash(blaming: row.id) == nil, "a failed download counts no more crashes")
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
