/*
Abstract:
Tests of digesting a pack archive as its transfer writes it: a resumed download still gives the file's digests, and the host installs from them.
*/

import AssetPackArchive
import AssetPackFormat
import BackgroundAssetsIPC
@testable import BackgroundAssetsDaemon
import Foundation
import Testing
import TestSupport

@Suite("Pack archives digested as they arrive", .timeLimit(.minutes(1)))
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

    @Test("A download resumed from the bytes an earlier attempt left is digested whole, and installs from those digests")
    func resumedDownload() async throws {
        let folder = try TemporaryDirectory(prefix: "arrivals")
        let published = try Self.archive(in: folder)
        let bytes = Array(try Data(contentsOf: published))
        let server = try Self.server(of: bytes)
        defer { server.stop() }
        let read = try AssetPackArchiveDigests(reading: published)
        var arrivedDigests: AssetPackArchiveDigests?

        for onDisk in [0, 7, 150_000, bytes.count - 10] {
            let part = folder.appending("download-\(onDisk).part")
            try Data(bytes.prefix(onDisk)).write(to: part)
            let arriving = ArrivingArchive()
            var request = TransferRequest(url: server.url("/Talks.aar"), partFile: part, expectedLength: Int64(bytes.count),
                                          durableLength: Int64(onDisk), validator: onDisk > 0 ? .entityTag(HTTPTransferTests.etag) : nil,
                                          stallTimeout: .seconds(2))
            request.bodyObserver = arriving
            let (result, events) = await HTTPTransferTests.transfer(request)
            #expect(try result.get().length == Int64(bytes.count))
            #expect(events.contains(.began(offset: Int64(onDisk), expectedLength: Int64(bytes.count))))
            let digests = try #require(arriving.digests(), "resumed from \(onDisk) bytes")
            #expect(digests.length == read.length && digests.sha256 == read.sha256, "resumed from \(onDisk) bytes")
            #expect(digests.fileSHA256s == nil, "the manifest's digest of the whole archive makes each file's redundant")
            arrivedDigests = digests
        }

        let paths = DevicePaths(root: folder.appending("device"))
        let manifest = try AssetPackDownloadManifestBuilder.manifest(for: [published], downloadBaseURL: URL(string: "https://cdn.example.com/"))
        let entry = try #require(manifest.assetPacks.first)
        let (installation, _) = try AssetPackHost(paths: paths).install(
            archive: published, entry: entry, appGroup: "group.com.example.talks", digests: arrivedDigests)
        #expect(installation.installSize == 400_000)
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
        bytes[0..<1000].withUnsafeBytes { arriving.bodyWrote($0) }
        arriving.bodyBegan(at: 0, partFile: descriptor)
        bytes.withUnsafeBytes { arriving.bodyWrote($0) }
        #expect(arriving.digests()?.sha256 == (try AssetPackArchiveDigests(reading: part)).sha256)

        // A body that claims to start past the end of the file has bytes nobody saw.
        let gap = ArrivingArchive()
        gap.bodyBegan(at: Int64(bytes.count) + 5, partFile: descriptor)
        #expect(gap.digests() == nil)
    }
}
