/*
Abstract:
Tests of local failures during a download: a full disk, and a staging file deleted mid-transfer.
*/

@testable import BackgroundAssetsDaemon
import BackgroundAssetsIPC
import Foundation
import TestSupport
import Testing

@Suite("Local failures", .serialized, .timeLimit(.minutes(3)))
struct LocalFailureTests {
    static let file = HTTPTransferTests.file

    @Test("A full disk fails the download with the out-of-space error, and its staging file is removed",
          .enabled(if: SmallFileSystem.isAvailable, "mounting a small tmpfs needs root"))
    func fullDisk() async throws {
        let server = try ScriptedHTTPServer(script: HTTPTransferTests.fullResponse)
        defer { server.stop() }
        let harness = try QueueHarness()
        let staging = harness.paths.stagingDirectory
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        // A 128 KiB file system for staging/, smaller than the 300,000-byte file. Mounting needs
        // root (CAP_SYS_ADMIN); elsewhere the trait above skips the test, and swift test says so.
        guard mount("tmpfs", staging.path, "tmpfs", 0, "size=128k") == 0 else {
            Issue.record("Could not mount a small tmpfs on staging/: \(errnoText()).")
            return
        }
        defer { umount2(staging.path, Int32(MNT_DETACH)) }

        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count)
        guard case let .failed(_, failure) = try await harness.end(of: row.id) else {
            Issue.record("Must fail: \(harness.events)"); return
        }
        #expect(failure.domain == "NSCocoaErrorDomain" && failure.code == 640, "\(failure)")
        #expect(failure.message.contains("free some space"), "\(failure.message)")
        #expect(!FileManager.default.fileExists(atPath: harness.paths.stagingFile(forDownloadRow: row.id).path))
    }

    @Test("A staging file deleted mid-transfer is fetched again, not handed over empty or failed")
    func stagingDeleted() async throws {
        let server = try ScriptedHTTPServer(script: HTTPTransferTests.rangeResponse)
        defer { server.stop() }
        let harness = try QueueHarness { $0.backgroundBandwidthLimit = 200_000 }
        try await harness.queue.start()
        let row = try await harness.schedule(server.url("/a.mp4"), fileSize: Self.file.count)
        let part = harness.paths.stagingFile(forDownloadRow: row.id)
        try await poll(until: { harness.eventNames(of: row.id).contains("progress") }, "progress")
        #expect(unlink(part.path) == 0)
        guard case let .finished(_, file) = try await harness.end(of: row.id) else {
            Issue.record("Must finish: \(harness.events)"); return
        }
        #expect(Array(try Data(contentsOf: file)) == Self.file)
        #expect(server.requests.count >= 2, "fetched again")
    }
}
