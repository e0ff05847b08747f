/*
Abstract:
Tests of a pack archive digested and its files written as its transfer receives it: where a transfer may resume, what the staging file keeps, and the host installing the files written.
*/

import AssetPackArchive
import AssetPackFormat
import BackgroundAssetsIPC
@testable import BackgroundAssetsDaemon
import Foundation
import Testing
import TestSupport

@Suite("Pack archives digested as they arrive", .timeLimit(.minutes(3)))
struct ArchiveArrivalTests {
    /// A pack of one file of pseudo-random bytes, large enough to arrive in many pieces.
    private static func archive(in folder: TemporaryDirectory) throws -> URL {
        let file = folder.appending("talk.bin")
        try Data((0..<400_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }).write(to: file)
        let output = folder.appending("Talks.aar")
        try AssetPackArchiveWriter.write(identity: .init(assetPackID: "Talks", version: 1, downloadPolicy: .onDemand),
                                         sources: [.init(path: "Talks/talk.bin", file: file)], to: output)
        return output
    }

    /// A server of the archive that honours `Range` with the right validator.
    private static func server(of bytes: [UInt8]) throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { head, _ in
            guard let range = head.headerValue("Range"), let start = Int(range.dropFirst(6).dropLast()),
                  head.headerValue("If-Range") == HTTPTransferTests.etag else {
                return .response("200 OK", ["ETag: \(HTTPTransferTests.etag)"], body: bytes)
            }
            return .response("206 Partial Content", ["ETag: \(HTTPTransferTests.etag)",
                             "Content-Range: bytes \(start)-\(bytes.count - 1)/\(bytes.count)"], body: Array(bytes[start...]))
        }
    }

    @Test("An archive's files are written where they install from as it arrives, leaving holes in the staging file; bytes this process did not see are fetched again from zero")
    func filesWrittenAsTheyArrive() async throws {
        let folder = try TemporaryDirectory(prefix: "arrivals")
        let published = try Self.archive(in: folder)
        let bytes = Array(try Data(contentsOf: published))
        let payload = (bytes.count - 400_032)..<(bytes.count - 32)
        let server = try Self.server(of: bytes)
        defer { server.stop() }
        let read = try AssetPackArchiveDigests(reading: published)
        var arrivedDigests: AssetPackArchiveDigests?
        let paths = DevicePaths(root: folder.appending("device"))
        let group = "group.com.example.talks"
        let layout = AssetPackContainerLayout(appGroupContainer: try #require(paths.container(forAppGroup: group)))

        // Bytes on disk that a restarted service's arrival never saw may have holes: it starts over.
        for onDisk in [0, 7, 150_000, bytes.count - 10] {
            let part = folder.appending("download-\(onDisk).part")
            try Data(bytes.prefix(onDisk)).write(to: part)
            let arriving = ArrivingArchive(staging: layout.stagingDirectory, name: "asset-pack.Talks.v1")
            var request = TransferRequest(url: server.url("/Talks.aar"), partFile: part, expectedLength: Int64(bytes.count),
                                          durableLength: Int64(onDisk), validator: onDisk > 0 ? .entityTag(HTTPTransferTests.etag) : nil,
                                          stallTimeout: .seconds(2))
            request.bodyObserver = arriving
            let (result, events) = await HTTPTransferTests.transfer(request)
            #expect(try result.get().length == Int64(bytes.count))
            #expect(events.contains(.began(offset: 0, expectedLength: Int64(bytes.count))), "started over from \(onDisk) bytes")
            let digests = try #require(arriving.digests(), "started over from \(onDisk) bytes")
            #expect(digests.length == read.length && digests.sha256 == read.sha256, "started over from \(onDisk) bytes")
            #expect(digests.fileSHA256s == nil, "the manifest's digest of the whole archive makes each file's redundant")
            let unpacked = try #require(digests.unpacked, "started over from \(onDisk) bytes, the files were written")
            #expect(try Data(contentsOf: unpacked.appending(path: "Talks/talk.bin")) == Data(bytes[payload]))
            // The staging file has the archive's length, its header and its trailer, but not the file's bytes.
            let kept = Array(try Data(contentsOf: part))
            #expect(kept.count == bytes.count && kept.prefix(payload.lowerBound) == bytes.prefix(payload.lowerBound))
            #expect(kept.suffix(32) == bytes.suffix(32) && kept[payload] != bytes[payload])
            if let earlier = arrivedDigests?.unpacked { try FileManager.default.removeItem(at: earlier) }
            arrivedDigests = digests
        }

        let manifest = try AssetPackDownloadManifestBuilder.manifest(for: [published], downloadBaseURL: URL(string: "https://cdn.example.com/"))
        let entry = try #require(manifest.assetPacks.first)
        let (installation, _) = try AssetPackHost(paths: paths).install(
            archive: published, entry: entry, appGroup: group, digests: arrivedDigests)
        #expect(installation.installSize == 400_000)
        // The folder written as the bytes arrived is what was installed: moved, not copied.
        #expect(try FileManager.default.contentsOfDirectory(atPath: layout.stagingDirectory.path).isEmpty)
        #expect(try Data(contentsOf: layout.currentLink("Talks").appending(path: "Talks/talk.bin")) == Data(bytes[payload]))
    }

    @Test("An attempt that breaks off resumes where this process's arrival stopped, and nowhere else")
    func resumesWhereItStopped() throws {
        let folder = try TemporaryDirectory(prefix: "arrivals")
        let published = try Self.archive(in: folder)
        let bytes = Array(try Data(contentsOf: published))
        let layout = AssetPackContainerLayout(appGroupContainer: folder.appending("container"))
        let part = folder.appending("download.part")
        #expect(FileManager.default.createFile(atPath: part.path, contents: nil))
        let descriptor = open(part.path, O_RDWR)
        defer { close(descriptor) }
        /// What a transfer does with a piece: the observer's bytes, and the rest to the staging file.
        func arrive(_ range: Range<Int>, at arriving: ArrivingArchive) throws {
            try bytes[range].withUnsafeBytes { piece throws in
                let stored = try arriving.bodyArrived(piece)
                let kept = stored.isEmpty ? [0..<piece.count] : [0..<stored.lowerBound, stored.upperBound..<piece.count]
                for part in kept where !part.isEmpty {
                    _ = pwrite(descriptor, piece.baseAddress! + part.lowerBound, part.count, off_t(range.lowerBound + part.lowerBound))
                }
            }
        }

        let arriving = ArrivingArchive(staging: layout.stagingDirectory, name: "asset-pack.Talks.v1")
        #expect(arriving.resumableOffset(upTo: 1000) == 0, "it saw nothing yet")
        arriving.bodyBegan(at: 0, partFile: descriptor)
        try arrive(0..<1000, at: arriving)
        try arrive(1000..<200_000, at: arriving)
        #expect(arriving.resumableOffset(upTo: 200_000) == 200_000)
        #expect(arriving.resumableOffset(upTo: 150_000) == 0, "the bytes before are in its files, not in the staging file")
        arriving.bodyBegan(at: 200_000, partFile: descriptor)
        try arrive(200_000..<bytes.count, at: arriving)
        let digests = try #require(arriving.digests())
        #expect(digests.sha256 == (try AssetPackArchiveDigests(reading: published)).sha256)
        let unpacked = try #require(digests.unpacked)
        #expect(try Data(contentsOf: unpacked.appending(path: "Talks/talk.bin")) == Data(bytes[(bytes.count - 400_032)..<(bytes.count - 32)]))
    }

    @Test("Files that cannot be written leave the bytes to the staging file; losing them after some were stored ends the attempt")
    func filesThatCannotBeWritten() throws {
        let folder = try TemporaryDirectory(prefix: "arrivals")
        let first = folder.appending("a.bin"), second = folder.appending("b.bin")
        try Data(repeating: 1, count: 300_000).write(to: first)
        try Data(repeating: 2, count: 300_000).write(to: second)
        let published = folder.appending("Two.aar")
        try AssetPackArchiveWriter.write(identity: .init(assetPackID: "Two", version: 1, downloadPolicy: .onDemand),
                                         sources: [.init(path: "Two/a.bin", file: first), .init(path: "Two/b.bin", file: second)],
                                         to: published)
        let bytes = Array(try Data(contentsOf: published))
        let part = folder.appending("download.part")
        #expect(FileManager.default.createFile(atPath: part.path, contents: nil))
        let descriptor = open(part.path, O_RDONLY)
        defer { close(descriptor) }

        // A staging folder under a file cannot be made: every byte stays in the staging file.
        let blocked = ArrivingArchive(staging: first.appending(path: "staging"), name: "asset-pack.Two.v1")
        blocked.bodyBegan(at: 0, partFile: descriptor)
        let stored = try bytes.withUnsafeBytes { try blocked.bodyArrived($0) }
        #expect(stored.isEmpty)
        #expect(blocked.digests()?.unpacked == nil)

        // The folder disappears after the first file's bytes went into it: the second cannot be created.
        let staging = folder.appending("staging")
        let arriving = ArrivingArchive(staging: staging, name: "asset-pack.Two.v1")
        arriving.bodyBegan(at: 0, partFile: descriptor)
        let secondFileStart = bytes.count - 32 - 300_000
        for start in stride(from: 0, to: secondFileStart - 1000, by: 1000) {
            _ = try bytes[start..<(start + 1000)].withUnsafeBytes { try arriving.bodyArrived($0) }
        }
        try FileManager.default.removeItem(at: staging)
        #expect(throws: TransferError.self) {
            try bytes[(secondFileStart - 1000)...].withUnsafeBytes { try arriving.bodyArrived($0) }
        }
        #expect(arriving.resumableOffset(upTo: Int64(secondFileStart - 1000)) == 0, "its bytes are in files that are gone")
    }

    @Test("An archive of another pack version than the download is for has no file written before its check")
    func otherPackWritesNothing() throws {
        let folder = try TemporaryDirectory(prefix: "arrivals")
        let bytes = Array(try Data(contentsOf: try Self.archive(in: folder)))
        let staging = folder.appending("staging")
        let part = folder.appending("download.part")
        #expect(FileManager.default.createFile(atPath: part.path, contents: nil))
        let descriptor = open(part.path, O_RDONLY)
        defer { close(descriptor) }

        let arriving = ArrivingArchive(staging: staging, name: "asset-pack.Talks.v2")
        arriving.bodyBegan(at: 0, partFile: descriptor)
        var stored = false
        for start in stride(from: 0, to: bytes.count, by: 10_000) {
            stored = try !bytes[start..<min(start + 10_000, bytes.count)].withUnsafeBytes { try arriving.bodyArrived($0) }.isEmpty || stored
        }
        #expect(!stored, "every byte stays in the staging file, for the unpack to refuse")
        #expect(arriving.digests()?.unpacked == nil)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).isEmpty)
    }

    @Test("A body that restarts from zero forgets what the earlier one saw; bytes it never saw give no digests")
    func restartsAndGaps() throws {
        let folder = try TemporaryDirectory(prefix: "arrivals")
        let bytes = Array(try Data(contentsOf: try Self.archive(in: folder)))
        let part = folder.appending("download.part")
        try Data(bytes).write(to: part)
        let descriptor = open(part.path, O_RDONLY)
        defer { close(descriptor) }

        let arriving = ArrivingArchive()
        #expect(arriving.digests() == nil)  // nothing began
        arriving.bodyBegan(at: 0, partFile: descriptor)
        _ = try bytes[0..<1000].withUnsafeBytes { try arriving.bodyArrived($0) }
        arriving.bodyBegan(at: 0, partFile: descriptor)
        let stored = try bytes.withUnsafeBytes { try arriving.bodyArrived($0) }
        #expect(stored.isEmpty, "with no staging folder, every byte stays in the staging file")
        #expect(arriving.digests()?.sha256 == (try AssetPackArchiveDigests(reading: part)).sha256)

        // A body that claims to start past the end of the file has bytes nobody saw.
        let gap = ArrivingArchive()
        gap.bodyBegan(at: Int64(bytes.count) + 5, partFile: descriptor)
        #expect(gap.digests() == nil)
    }
}
