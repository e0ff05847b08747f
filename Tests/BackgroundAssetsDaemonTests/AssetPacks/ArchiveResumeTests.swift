/*
Abstract:
Tests of a pack archive's transfer against a server that cuts every response: each attempt resumes with Range from the bytes already stored, and the staging file spans the holes its arrival left.
*/

import AssetPackArchive
import AssetPackFormat
@testable import BackgroundAssetsDaemon
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("Pack archives resume after a cut connection", .timeLimit(.minutes(3)))
struct ArchiveResumeTests {
    /// Every response of the server below breaks off after this many bytes of its body.
    static let cut = 700_000

    /// A pack of two files of pseudo-random bytes, 2 MB in all: three responses cut at ``cut``.
    private static func archive(in folder: TemporaryDirectory) throws -> (url: URL, files: [Data]) {
        let files = [Data((0..<1_200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }),
                     Data((0..<800_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 7) })]
        var sources: [AssetPackArchiveWriter.Source] = []
        for (index, bytes) in files.enumerated() {
            let file = folder.appending("file-\(index).bin")
            try bytes.write(to: file)
            sources.append(.init(path: "Talks/file-\(index).bin", file: file))
        }
        let output = folder.appending("Talks.aar")
        try AssetPackArchiveWriter.write(identity: .init(assetPackID: "Talks", version: 1, downloadPolicy: .onDemand),
                                         sources: sources, to: output)
        return (output, files)
    }

    /// The body bytes a server sent, counted from its own threads.
    private final class ServedBytes: Sendable {
        let count = Mutex(0)
        var total: Int { count.withLock { $0 } }
    }

    /// A server that honours `Range` with the right validator and announces the whole rest of the
    /// file, but closes the connection after ``cut`` bytes of every body, as `asset-server
    /// --drop-after` does; `served` counts the body bytes it sent.
    private static func cuttingServer(of bytes: [UInt8], served: ServedBytes) throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { head, _ in
            var start = 0
            var status = "200 OK"
            var fields = ["ETag: \(HTTPTransferTests.etag)"]
            if let range = head.headerValue("Range"), let from = Int(range.dropFirst(6).dropLast()),
               head.headerValue("If-Range") == HTTPTransferTests.etag, from < bytes.count {
                start = from
                status = "206 Partial Content"
                fields.append("Content-Range: bytes \(from)-\(bytes.count - 1)/\(bytes.count)")
            }
            let body = Array(bytes[start..<min(bytes.count, start + cut)])
            served.count.withLock { $0 += body.count }
            return .response(status, fields + ["Content-Length: \(bytes.count - start)"], body: body)
        }
    }

    /// The length of a file on disk, as the queue reads it to resume within a boot.
    private static func length(of url: URL) -> Int64 {
        var status = stat()
        return stat(url.path, &status) == 0 ? Int64(status.st_size) : -1
    }

    @Test("Every attempt after a cut asks for the rest with Range, and the bytes served stay within a tenth of the archive's size")
    func resumesAfterEveryCut() async throws {
        let folder = try TemporaryDirectory(prefix: "archive-resume")
        let (published, files) = try Self.archive(in: folder)
        let bytes = Array(try Data(contentsOf: published))
        let served = ServedBytes()
        let server = try Self.cuttingServer(of: bytes, served: served)
        defer { server.stop() }
        let staging = folder.appending("container/Library/BackgroundAssets/AssetPacks/.staging")
        let arriving = ArrivingArchive(staging: staging, name: "asset-pack.Talks.v1")
        let part = folder.appending("download.part")

        // As the queue does within one boot: each attempt keeps the staging file's length and the
        // validator of the last checkpoint, and the same arrival sees every attempt.
        var validator: ResumeValidator?
        var outcome: Result<TransferResult, TransferError>?
        var attempts = 0
        while attempts < 10 {
            attempts += 1
            let onDisk = Self.length(of: part)
            var request = TransferRequest(url: server.url("/Talks.aar"), partFile: part, expectedLength: Int64(bytes.count),
                                          durableLength: max(0, onDisk), validator: validator, stallTimeout: .seconds(2))
            request.bodyObserver = arriving
            let (result, events) = await HTTPTransferTests.transfer(request)
            #expect(!events.contains { if case .restartedFromZero = $0 { true } else { false } },
                    "attempt \(attempts) started over: \(events)")
            for case let .checkpoint(_, checkpointed) in events { validator = checkpointed }
            outcome = result
            if case .success = result { break }
            // The attempt's last checkpoint covers every byte received, files' bytes included.
            let received = Int64(min(bytes.count, attempts * Self.cut))
            #expect(Self.length(of: part) == received, "the staging file spans the holes its arrival left")
            #expect(events.last { if case .checkpoint = $0 { true } else { false } } == .checkpoint(length: received, validator: validator))
            #expect(arriving.resumableOffset(upTo: received) == received)
        }

        #expect(try outcome?.get().length == Int64(bytes.count))
        #expect(attempts == 3, "2 MB cut every \(Self.cut) bytes takes three responses")
        let ranges = server.requests.map { $0.headerValue("Range") }
        #expect(ranges == [nil, "bytes=\(Self.cut)-", "bytes=\(2 * Self.cut)-"])
        #expect(Double(served.total) <= 1.1 * Double(bytes.count), "served \(served.total) bytes of \(bytes.count)")

        let digests = try #require(arriving.digests())
        #expect(digests.sha256 == (try AssetPackArchiveDigests(reading: published)).sha256)
        let unpacked = try #require(digests.unpacked, "the files were written as they arrived")
        for (index, file) in files.enumerated() {
            #expect(try Data(contentsOf: unpacked.appending(path: "Talks/file-\(index).bin")) == file)
        }
        // The header and the trailer, and the files' bytes as holes, but for the pieces that held
        // some of the header or the trailer too: those stay whole in the staging file.
        let kept = Array(try Data(contentsOf: part))
        #expect(kept.count == bytes.count && kept.suffix(32) == bytes.suffix(32))
        let filesBytes = (bytes.count - 32 - 2_000_000)..<(bytes.count - 32)
        let holes = kept[filesBytes].count { $0 == 0 }
        #expect(holes > filesBytes.count * 3 / 4, "\(holes) of the files' \(filesBytes.count) bytes are holes")
    }

    @Test("A restarted service's arrival cannot continue a staging file with holes: it starts over from zero")
    func restartStartsOver() async throws {
        let folder = try TemporaryDirectory(prefix: "archive-resume")
        let (published, _) = try Self.archive(in: folder)
        let bytes = Array(try Data(contentsOf: published))
        let served = ServedBytes()
        let server = try Self.cuttingServer(of: bytes, served: served)
        defer { server.stop() }
        let staging = folder.appending("staging")
        let part = folder.appending("download.part")

        var request = TransferRequest(url: server.url("/Talks.aar"), partFile: part, expectedLength: Int64(bytes.count),
                                      stallTimeout: .seconds(2))
        request.bodyObserver = ArrivingArchive(staging: staging, name: "asset-pack.Talks.v1")
        let (first, _) = await HTTPTransferTests.transfer(request)
        #expect(throws: TransferError.self) { try first.get() }
        #expect(Self.length(of: part) == Int64(Self.cut))

        // A new arrival, as after a restart: the bytes before the cut went into files it never saw.
        request.durableLength = Self.length(of: part)
        request.validator = ResumeValidator.entityTag(HTTPTransferTests.etag)
        request.bodyObserver = ArrivingArchive(staging: staging, name: "asset-pack.Talks.v1")
        let (_, events) = await HTTPTransferTests.transfer(request)
        #expect(events.contains(TransferEvent.restartedFromZero(reason: "the bytes before \(Self.cut) were stored outside the staging file, and are not there any more")))
        #expect(events.contains(TransferEvent.began(offset: 0, expectedLength: Int64(bytes.count))))
    }

    @Test("A restarted service's arrival, restored from its saved state, continues with Range from its last checkpoint")
    func restoredArrivalContinues() async throws {
        let folder = try TemporaryDirectory(prefix: "archive-resume")
        let (published, files) = try Self.archive(in: folder)
        let bytes = Array(try Data(contentsOf: published))
        let served = ServedBytes()
        let server = try Self.cuttingServer(of: bytes, served: served)
        defer { server.stop() }
        let staging = folder.appending("staging")
        let saved = ArrivalStateFiles(folder: folder.url, rowID: 7)
        let part = folder.appending("download.part")

        var request = TransferRequest(url: server.url("/Talks.aar"), partFile: part, expectedLength: Int64(bytes.count),
                                      stallTimeout: .seconds(2))
        request.bodyObserver = ArrivingArchive(staging: staging, name: "asset-pack.Talks.v1", saving: saved)
        let (first, _) = await HTTPTransferTests.transfer(request)
        #expect(throws: TransferError.self) { try first.get() }
        #expect(saved.exists, "the attempt's last checkpoint saved the arrival")

        // Bytes that arrived after the checkpoint, which a killed service left in the staging file:
        // the restored arrival cannot account for them, so the file is cut back to its byte.
        let handle = try FileHandle(forWritingTo: part)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0xEE, count: 5000))
        try handle.close()
        let restored = try ArrivingArchive(restoring: saved, staging: staging, name: "asset-pack.Talks.v1")
        #expect(restored.byteCount == Int64(Self.cut))
        request.durableLength = Self.length(of: part)
        request.validator = ResumeValidator.entityTag(HTTPTransferTests.etag)
        request.bodyObserver = restored
        var result: Result<TransferResult, TransferError>?
        for _ in 0..<4 {
            let (outcome, events) = await HTTPTransferTests.transfer(request)
            #expect(!events.contains { if case .restartedFromZero = $0 { true } else { false } }, "\(events)")
            result = outcome
            if case .success = outcome { break }
            request.durableLength = Self.length(of: part)
        }
        #expect(try result?.get().length == Int64(bytes.count))
        let ranges = server.requests.map { $0.headerValue("Range") }
        #expect(ranges == [nil, "bytes=\(Self.cut)-", "bytes=\(2 * Self.cut)-"])
        #expect(Double(served.total) <= 1.1 * Double(bytes.count), "served \(served.total) bytes of \(bytes.count)")

        // The end of the body saved the whole arrival: a restart before the unpack unpacks from it.
        let finished = try ArrivingArchive(restoring: saved, staging: staging, name: "asset-pack.Talks.v1")
        let digests = try #require(finished.digests())
        #expect(digests.sha256 == (try AssetPackArchiveDigests(reading: published)).sha256)
        let unpacked = try #require(digests.unpacked, "every file was written")
        for (index, file) in files.enumerated() {
            #expect(try Data(contentsOf: unpacked.appending(path: "Talks/file-\(index).bin")) == file)
        }
    }

    @Test("A saved state that is damaged, lacks its header bytes, or whose files are gone is refused")
    func savedStatesRefused() async throws {
        let folder = try TemporaryDirectory(prefix: "archive-resume")
        let (published, _) = try Self.archive(in: folder)
        let bytes = Array(try Data(contentsOf: published))
        let served = ServedBytes()
        let server = try Self.cuttingServer(of: bytes, served: served)
        defer { server.stop() }
        let staging = folder.appending("staging")
        let saved = ArrivalStateFiles(folder: folder.url, rowID: 8)
        var request = TransferRequest(url: server.url("/Talks.aar"), partFile: folder.appending("download.part"),
                                      expectedLength: Int64(bytes.count), stallTimeout: .seconds(2))
        request.bodyObserver = ArrivingArchive(staging: staging, name: "asset-pack.Talks.v1", saving: saved)
        _ = await HTTPTransferTests.transfer(request)
        let state = try Data(contentsOf: saved.state), header = try Data(contentsOf: saved.header)
        func refused(_ why: String) {
            #expect(throws: AssetPackArchiveError.self, "\(why)") {
                try ArrivingArchive(restoring: saved, staging: staging, name: "asset-pack.Talks.v1")
            }
        }
        #expect(throws: Never.self) { try ArrivingArchive(restoring: saved, staging: staging, name: "asset-pack.Talks.v1") }
        // The download's name says which pack version it is for.
        #expect(throws: AssetPackArchiveError.self, "another pack version's") {
            try ArrivingArchive(restoring: saved, staging: staging, name: "asset-pack.Talks.v2")
        }
        var damaged = state
        damaged[damaged.count / 2] ^= 0x20
        try damaged.write(to: saved.state)
        refused("a damaged state")
        try state.write(to: saved.state)
        try FileManager.default.removeItem(at: saved.header)
        refused("no header bytes")
        try header.write(to: saved.header)
        for name in try FileManager.default.contentsOfDirectory(atPath: staging.path) {
            try FileManager.default.removeItem(at: staging.appending(path: name))
        }
        refused("the staging folder is gone")
    }
}
