/*
Abstract:
Tests that checkpoints synced off the transfer's thread are reported in order, before the transfer ends, and that a failed sync stops it.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Syncing checkpoints off the transfer's thread", .timeLimit(.minutes(3)))
struct CheckpointSyncerTests {
    @Test("Every checkpoint asked for is reported by the time finish() returns, the last one last")
    func reportsBeforeFinishing() throws {
        let folder = try TemporaryDirectory()
        let part = try PartFile(url: folder.url.appending(path: "a.part"), durableLength: 0)
        let events = Mutex<[TransferEvent]>([])
        let syncer = CheckpointSyncer(part: part, validator: .entityTag("\"v1\"")) { event in
            events.withLock { $0.append(event) }
        }
        var written: Int64 = 0
        for _ in 0..<20 {
            try Array(repeating: UInt8(7), count: 4096).withUnsafeBytes { try part.write($0, at: written) }
            written += 4096
            try syncer.checkpoint(length: written)
        }
        try syncer.finish()
        let lengths = events.withLock { $0 }.compactMap { event -> Int64? in
            if case let .checkpoint(length, validator) = event, validator == .entityTag("\"v1\"") { return length }
            return nil
        }
        // Requests made during a sync are merged, so there may be fewer reports than requests.
        #expect(!lengths.isEmpty)
        #expect(lengths == lengths.sorted(), "reported in the order asked")
        #expect(lengths.last == written, "the last length asked for is reported before finish() returns")
    }

    @Test("A body observer's work for every checkpoint runs, in order, before that checkpoint is reported")
    func observerWorkBeforeReport() throws {
        let folder = try TemporaryDirectory()
        let part = try PartFile(url: folder.url.appending(path: "a.part"), durableLength: 0)
        let log = Mutex<[String]>([])
        let syncer = CheckpointSyncer(part: part, validator: nil) { event in
            if case let .checkpoint(length, _) = event { log.withLock { $0.append("reported \(length)") } }
        }
        for length in stride(from: Int64(4096), through: 40_960, by: 4096) {
            try syncer.checkpoint(length: length, then: { log.withLock { $0.append("saved \(length)") } })
        }
        try syncer.finish()
        let entries = log.withLock { $0 }
        // Merged requests report once, but the work of each runs, since each made its own writes.
        let saved = entries.filter { $0.hasPrefix("saved") }
        #expect(saved == stride(from: 4096, through: 40_960, by: 4096).map { "saved \($0)" })
        for (index, entry) in entries.enumerated() where entry.hasPrefix("reported") {
            let length = entry.dropFirst("reported ".count)
            let savedAt = entries.firstIndex(of: "saved \(length)")
            #expect(savedAt.map { $0 < index } == true, "the work for \(length) ran before its report: \(entries)")
        }
        #expect(entries.last == "reported 40960")
    }

    @Test("A sync that fails stops the transfer at its next checkpoint, or at its end")
    func failureSurfaces() throws {
        // A device cannot be synced (EINVAL), which stands in for a failing disk.
        let part = try PartFile(url: URL(filePath: "/dev/null"), durableLength: 0)
        let syncer = CheckpointSyncer(part: part, validator: nil) { _ in }
        try syncer.checkpoint(length: 1)
        #expect(throws: TransferError.self) { try syncer.finish() }
        #expect(throws: TransferError.self) { try syncer.checkpoint(length: 2) }
    }

    @Test("A transfer with many checkpoints reports them in order and ends with the whole file")
    func transferReportsInOrder() async throws {
        let server = try ScriptedHTTPServer(script: HTTPTransferTests.fullResponse)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        var request = try HTTPTransferTests.request(server.url("/a.mp4"), in: folder.url)
        request.checkpointBytes = 1024
        let (result, events) = await HTTPTransferTests.transfer(request)
        _ = try result.get()
        let lengths = events.compactMap { event -> Int64? in
            if case let .checkpoint(length, _) = event { return length }
            return nil
        }
        #expect(lengths.count > 2, "checkpoints were taken along the way: \(lengths)")
        #expect(lengths == lengths.sorted())
        #expect(lengths.last == Int64(HTTPTransferTests.file.count))
        guard case .checkpoint = try #require(events.last(where: { if case .progress = $0 { false } else { true } })) else {
            Issue.record("the whole file's checkpoint comes after every other"); return
        }
    }
}
