/*
Abstract:
Unit tests of digesting archives as they arrive: any split and any resume give the file's digests, and the unpack still refuses what does not match.
*/

@testable import AssetPackArchive
import AssetPackFormat
import Foundation
import Testing

@Suite("Digesting archives as they arrive")
struct DigesterTests {
    private let files = ["Videos/intro.m4v": String(repeating: "v", count: 3000), "notes.txt": "hello", "empty.txt": ""]

    /// An archive of `files` in the fixture's folder, its bytes, and its digests as reading the file gives them.
    private func packaged(in fixture: PackFixture) throws -> (url: URL, bytes: [UInt8], digests: AssetPackArchiveDigests) {
        let archive = try fixture.packageFiles(files, to: "P.aar")
        return (archive, Array(try Data(contentsOf: archive)), try AssetPackArchiveDigests(reading: archive))
    }

    /// Digests `bytes` in pieces of `piece` bytes.
    private static func digest(_ bytes: [UInt8], piece: Int) -> AssetPackArchiveDigests {
        var digester = AssetPackArchiveDigester()
        var start = 0
        while start < bytes.count {
            let end = min(start + piece, bytes.count)
            bytes[start..<end].withUnsafeBytes { _ = digester.update($0) }
            start = end
        }
        return digester.finish()
    }

    @Test("Bytes digested in any pieces give the whole archive's SHA-256 and each file's, as reading the file does")
    func anySplit() throws {
        let fixture = try PackFixture()
        let (archive, bytes, read) = try packaged(in: fixture)
        let reader = try AssetPackArchiveReader(url: archive)
        #expect(read.length == Int64(bytes.count))
        #expect(read.fileSHA256s == reader.header.files.map(\.sha256))
        var whole = ArchiveDigest()
        whole.update(bytes)
        let wholeSHA256 = whole.finalize()
        #expect(read.sha256 == wholeSHA256)
        for piece in [1, 7, 12, 13, 4096, bytes.count] {
            #expect(Self.digest(bytes, piece: piece) == read, "in pieces of \(piece) bytes")
        }
        try reader.check(read, expecting: read.sha256)
    }

    @Test("A download resumed at any byte, its first bytes read back from the file, gives the same digests")
    func resumed() throws {
        let fixture = try PackFixture()
        let (_, bytes, expected) = try packaged(in: fixture)
        let partial = fixture.root.appending(path: "P.aar.part")
        for resumeAt in [0, 5, 12, 100, bytes.count / 2, bytes.count - 1] {
            try Data(bytes.prefix(resumeAt)).write(to: partial)
            let descriptor = open(partial.path, O_RDONLY)
            defer { close(descriptor) }
            var digester = AssetPackArchiveDigester()
            try digester.read(descriptor, upTo: Int64(resumeAt), path: partial.path)
            #expect(digester.byteCount == Int64(resumeAt))
            bytes[resumeAt...].withUnsafeBytes { _ = digester.update($0) }
            #expect(digester.finish() == expected, "resumed at \(resumeAt)")
        }
    }

    @Test("Bytes that are not an archive get their SHA-256 but no file digests, and the unpack reads the file instead")
    func notAnArchive() throws {
        let junk = Self.digest(Array(repeating: 0x42, count: 5000), piece: 100)
        #expect(junk.length == 5000)
        #expect(junk.fileSHA256s == nil)

        let fixture = try PackFixture()
        let (archive, bytes, read) = try packaged(in: fixture)
        let reader = try AssetPackArchiveReader(url: archive)
        #expect(try reader.digests(matching: junk) == read)
        // Digests of a prefix do not cover the file either.
        let prefix = Self.digest(Array(bytes.dropLast(40)), piece: 512)
        #expect(prefix.fileSHA256s == nil)
        #expect(try reader.digests(matching: prefix) == read)
    }

    @Test("Digests of tampered bytes are refused before anything is unpacked, naming the file or the manifest")
    func tamperedWhileArriving() throws {
        let fixture = try PackFixture()
        let layout = AssetPackContainerLayout(root: fixture.root.appending(path: "packs"))
        let unpacker = AssetPackUnpacker(layout: layout)
        let archive = try fixture.packageFiles(files, to: "P.aar")
        let published = try AssetPackArchiveDigests(reading: archive)
        let reader = try AssetPackArchiveReader(url: archive)
        // Files follow the header in its order: find where the video starts.
        let offset = reader.sealedBytes.count + reader.header.files.prefix { $0.path != "Videos/intro.m4v" }
            .reduce(0) { $0 + Int($1.size) }
        try fixture.flipByte(of: archive, at: offset + 1500)
        let arrived = try AssetPackArchiveDigests(reading: archive)

        do {
            try unpacker.install(archive: archive, expecting: .init(packID: "Tutorial", version: 1, sha256: published.sha256),
                                 digests: arrived)
            Issue.record("An archive whose SHA-256 is not the manifest's was installed.")
        } catch {
            #expect(error.kind == .tampered)
            #expect(error.problem.contains("download manifest lists \(published.sha256)"))
        }
        do {
            try unpacker.install(archive: archive, digests: arrived)
            Issue.record("An archive with a changed file was installed.")
        } catch {
            #expect(error.kind == .tampered)
            #expect(error.problem.contains("Videos/intro.m4v"))
        }
        // Checked before a byte was unpacked: no staging folder was even made.
        #expect(!FileManager.default.fileExists(atPath: layout.stagingDirectory.path))
        #expect(layout.installedPacks().isEmpty)
    }

    @Test("An archive installs from digests computed as it arrived, and the files hold the archive's bytes")
    func installsFromArrivedDigests() throws {
        let fixture = try PackFixture()
        let layout = AssetPackContainerLayout(root: fixture.root.appending(path: "packs"))
        let archive = try fixture.packageFiles(files, to: "P.aar")
        let arrived = Self.digest(Array(try Data(contentsOf: archive)), piece: 1000)
        let installation = try AssetPackUnpacker(layout: layout).install(
            archive: archive, expecting: .init(packID: "Tutorial", version: 1, sha256: arrived.sha256), digests: arrived)
        #expect(installation.version == 1)
        for (path, contents) in files {
            let data = try Data(contentsOf: layout.currentLink("Tutorial").appending(path: path))
            #expect(String(decoding: data, as: UTF8.self) == contents, "\(path)")
        }
    }

    @Test("The whole archive's digest alone installs when the manifest gives it; without one, each file's is read and checked")
    func wholeDigestOnly() throws {
        let fixture = try PackFixture()
        let layout = AssetPackContainerLayout(root: fixture.root.appending(path: "packs"))
        let archive = try fixture.packageFiles(files, to: "P.aar")
        let read = try AssetPackArchiveDigests(reading: archive)
        var digester = AssetPackArchiveDigester(digestsFiles: false)
        Array(try Data(contentsOf: archive)).withUnsafeBytes { _ = digester.update($0) }
        let whole = digester.finish()
        #expect(whole.sha256 == read.sha256 && whole.length == read.length && whole.fileSHA256s == nil)

        let reader = try AssetPackArchiveReader(url: archive)
        #expect(try reader.digests(matching: whole, needsFileDigests: false) == whole)
        #expect(try reader.digests(matching: whole, needsFileDigests: true) == read, "without a manifest digest, the files' are read")
        try reader.check(whole, expecting: read.sha256)
        #expect(throws: AssetPackArchiveError.self, "each file's digest is what is checked without the manifest's") {
            try reader.check(whole, expecting: nil)
        }

        // A file changed inside: with a manifest digest, the whole archive's no longer matches it.
        let changedOffset = reader.sealedBytes.count + 10
        try fixture.flipByte(of: archive, at: changedOffset)
        var changed = AssetPackArchiveDigester(digestsFiles: false)
        Array(try Data(contentsOf: archive)).withUnsafeBytes { _ = changed.update($0) }
        let unpacker = AssetPackUnpacker(layout: layout)
        #expect(throws: AssetPackArchiveError.self) {
            try unpacker.install(archive: archive, expecting: .init(packID: "Tutorial", version: 1, sha256: read.sha256),
                                 digests: changed.finish())
        }
        #expect(layout.installedPacks().isEmpty)
    }
}
