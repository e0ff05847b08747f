/*
Abstract:
Unit tests of installing an archive whose files were written as it arrived: no copy, and each file checked when the manifest gives no digest of the whole archive.
*/

@testable import AssetPackArchive
import AssetPackFormat
import Foundation
import Testing

@Suite("Installing files written as their archive arrived")
struct ArrivedFilesTests {
    /// Two files of 2,000 bytes: most pieces of 100 bytes fall inside one of them.
    private static let files = ["a.txt": String(repeating: "one ", count: 500), "dir/b.txt": String(repeating: "bee ", count: 500)]

    /// Feeds an archive's bytes to a digester with a sink writing into `folder`, in pieces as a
    /// transfer would, and writes what the sink did not store to `kept`: the archive on
    /// disk, with holes where the files' bytes were.
    private func arrive(_ archive: URL, into folder: URL, keeping kept: URL, pieceSize: Int = 100) throws -> AssetPackArchiveDigests {
        let bytes = Array(try Data(contentsOf: archive))
        var digester = AssetPackArchiveDigester(digestsFiles: false, sink: ArchiveFileSink(folder: folder))
        var onDisk = [UInt8](repeating: 0, count: bytes.count)
        for start in stride(from: 0, to: bytes.count, by: pieceSize) {
            let range = start..<min(start + pieceSize, bytes.count)
            let stored = bytes[range].withUnsafeBytes { digester.update($0) }
            let kept = range.lowerBound..<(range.lowerBound + stored.lowerBound)
            let alsoKept = (range.lowerBound + stored.upperBound)..<range.upperBound
            for part in stored.isEmpty ? [range] : [kept, alsoKept] { onDisk.replaceSubrange(part, with: bytes[part]) }
        }
        try Data(onDisk).write(to: kept)
        return digester.finish()
    }

    /// A pack's archive arrived into a container's staging area: the layout, the archive as
    /// published, what the disk kept of it, the folder its files were written into, and the digests.
    private func arrivedPack(in fixture: PackFixture) throws
        -> (layout: AssetPackContainerLayout, archive: URL, kept: URL, folder: URL, arrived: AssetPackArchiveDigests) {
        let layout = AssetPackContainerLayout(root: fixture.root.appending(path: "container/packs"))
        try FileManager.default.createDirectory(at: layout.stagingDirectory, withIntermediateDirectories: true)
        let archive = try fixture.packageFiles(Self.files, version: 1, to: "v1.aar")
        let kept = fixture.root.appending(path: "kept.aar")
        let folder = layout.stagingDirectory.appending(path: "arriving")
        return (layout, archive, kept, folder, try arrive(archive, into: folder, keeping: kept))
    }

    @Test("The files written as the archive arrived are checked, synced and renamed into place, with nothing copied")
    func installsWithoutCopying() throws {
        let fixture = try PackFixture()
        let (layout, archive, kept, _, arrived) = try arrivedPack(in: fixture)
        #expect(arrived.unpacked != nil)
        #expect(try Data(contentsOf: kept) != Data(contentsOf: archive), "the files' bytes are not in the archive on disk")

        // No manifest digest of the whole archive: each file's is computed from the files written.
        let installation = try AssetPackUnpacker(layout: layout).install(
            archive: kept, expecting: .init(packID: "Tutorial", version: 1), digests: arrived)
        #expect(installation.installSize == 4000)
        #expect(try String(contentsOf: layout.currentLink("Tutorial").appending(path: "dir/b.txt"), encoding: .utf8) == Self.files["dir/b.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: layout.stagingDirectory.path).isEmpty, "moved, not copied")
    }

    @Test("A piece that holds the header, the files and the trailer leaves on disk only the header and the trailer", arguments: [1000, 1 << 20])
    func mixedPiecesKeepOnlyWhatIsNotInFiles(pieceSize: Int) throws {
        let fixture = try PackFixture()
        let layout = AssetPackContainerLayout(root: fixture.root.appending(path: "container/packs"))
        try FileManager.default.createDirectory(at: layout.stagingDirectory, withIntermediateDirectories: true)
        let archive = try fixture.packageFiles(Self.files, version: 1, to: "v1.aar")
        let kept = fixture.root.appending(path: "kept.aar")
        let arrived = try arrive(archive, into: layout.stagingDirectory.appending(path: "arriving"), keeping: kept, pieceSize: pieceSize)
        #expect(arrived.unpacked != nil)

        let bytes = Array(try Data(contentsOf: archive))
        let files = (bytes.count - 32 - 4000)..<(bytes.count - 32)
        let onDisk = Array(try Data(contentsOf: kept))
        #expect(onDisk[files].allSatisfy { $0 == 0 }, "the files' bytes are written once, into the files")
        #expect(onDisk[..<files.lowerBound] == bytes[..<files.lowerBound] && onDisk[files.upperBound...] == bytes[files.upperBound...])
        let installation = try AssetPackUnpacker(layout: layout).install(
            archive: kept, expecting: .init(packID: "Tutorial", version: 1), digests: arrived)
        #expect(installation.installSize == 4000)
    }

    @Test("A file changed after it was written is refused by name, and nothing of the pack is installed")
    func changedFileRefused() throws {
        let fixture = try PackFixture()
        let (layout, _, kept, folder, arrived) = try arrivedPack(in: fixture)
        try Data(String(repeating: "one ", count: 499).appending("onE ").utf8).write(to: folder.appending(path: "a.txt"))

        #expect {
            try AssetPackUnpacker(layout: layout).install(archive: kept, expecting: .init(packID: "Tutorial", version: 1),
                                                          digests: arrived)
        } throws: { error in
            guard let error = error as? AssetPackArchiveError else { return false }
            return error.kind == .tampered && error.problem.contains("a.txt")
        }
        #expect(layout.installedVersion(of: "Tutorial") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: layout.stagingDirectory.path).isEmpty, "the refused files are deleted")
    }
}
