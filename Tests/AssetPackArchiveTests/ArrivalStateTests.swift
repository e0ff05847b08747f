/*
Abstract:
Unit tests of an arriving archive's saved state: digests and files continued from it give the archive's own, and every state that does not fit is refused.
*/

@testable import AssetPackArchive
import AssetPackFormat
import Foundation
import Testing

@Suite("An archive's arrival saved and restored")
struct ArrivalStateTests {
    /// Files of several sizes, an empty one and a nested folder among them.
    private static let files = [
        "a.txt": String(repeating: "one ", count: 5000), "empty.txt": "",
        "dir/b.txt": String(repeating: "bee ", count: 3000), "dir/deeper/c.txt": String(repeating: "sea ", count: 4000),
    ]
    private static let expected = AssetPackDownloadIdentifier(packID: "Tutorial", version: 1)

    /// The archive, its bytes, the digests reading it gives, and a staging folder.
    private struct Arrival {
        let fixture: PackFixture
        let bytes: [UInt8]
        let read: AssetPackArchiveDigests
        let header: AssetPackArchiveHeader
        let staging: URL

        init() throws {
            fixture = try PackFixture()
            let archive = try fixture.packageFiles(ArrivalStateTests.files, to: "P.aar")
            bytes = Array(try Data(contentsOf: archive))
            read = try AssetPackArchiveDigests(reading: archive)
            header = try AssetPackArchiveReader(url: archive).header
            staging = fixture.root.appending(path: "staging")
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        }

        /// A sink writing into a new folder of the staging folder.
        func newSink() -> ArchiveFileSink {
            ArchiveFileSink(folder: staging.appending(path: "folder-\(UUID().uuidString)"), expecting: ArrivalStateTests.expected)
        }

        /// A digester writing into `sink`, fed the bytes before `end`.
        func started(_ sink: ArchiveFileSink, upTo end: Int) -> AssetPackArchiveDigester {
            var digester = AssetPackArchiveDigester(digestsFiles: false, sink: sink)
            feed(&digester, 0..<end)
            return digester
        }

        func feed(_ digester: inout AssetPackArchiveDigester, _ range: Range<Int>) {
            for start in stride(from: range.lowerBound, to: range.upperBound, by: 997) {
                bytes[start..<min(start + 997, range.upperBound)].withUnsafeBytes { _ = digester.update($0) }
            }
        }

        /// Restores from an encoded state and its header bytes.
        func restore(_ encoded: [UInt8], sealed: [UInt8]) throws(AssetPackArchiveError) -> AssetPackArchiveDigester {
            let state = try ArchiveArrivalState(decoding: encoded, path: "state")
            let sink = try state.resumingSink(in: staging, sealedBytes: sealed, expecting: ArrivalStateTests.expected)
            return try AssetPackArchiveDigester(restoring: state.digester, sealedBytes: sealed, sink: sink)
        }

        func checkFiles(in folder: URL) throws {
            for (path, contents) in ArrivalStateTests.files {
                #expect(try Data(contentsOf: folder.appending(path: path)) == Data(contents.utf8), "\(path)")
            }
        }
    }

    @Test("Continued from a state saved at any byte, even after more bytes went to the files, the digests and files are the archive's")
    func roundTrip() throws {
        let arrival = try Arrival()
        let count = arrival.bytes.count
        let headerEnd = Int(arrival.read.length) - arrival.header.files.reduce(0) { $0 + Int($1.size) } - 32
        for checkpoint in [5, 12, headerEnd - 1, headerEnd, headerEnd + 1, headerEnd + 20_000, count - 40, count - 10, count] {
            let sink = arrival.newSink()
            var digester = arrival.started(sink, upTo: checkpoint)
            let state = ArchiveArrivalState(digester: digester.savedState, sink: sink.position)
            let sealed = digester.sealedBytes
            try sink.takeUnsyncedWrites().sync()
            // Bytes after the checkpoint reach the files before the service is killed: they are cut away.
            arrival.feed(&digester, checkpoint..<min(count, checkpoint + 25_000))

            var restored = try arrival.restore(state.encoded, sealed: sealed)
            #expect(restored.byteCount == Int64(checkpoint))
            arrival.feed(&restored, checkpoint..<count)
            let digests = restored.finish()
            #expect(digests.sha256 == arrival.read.sha256 && digests.length == arrival.read.length, "at \(checkpoint)")
            let folder = try #require(digests.unpacked, "every file written, continuing at \(checkpoint)")
            try arrival.checkFiles(in: folder)
        }
    }

    @Test("A state cut short, damaged, or of another layout is refused as a whole")
    func damagedEncoding() throws {
        let arrival = try Arrival()
        let sink = arrival.newSink()
        let digester = arrival.started(sink, upTo: 30_000)
        var state = ArchiveArrivalState(digester: digester.savedState, sink: sink.position)
        let encoded = state.encoded
        #expect(try ArchiveArrivalState(decoding: encoded, path: "state") == state)
        var flipped = encoded
        flipped[encoded.count / 2] ^= 1
        state.formatVersion = 2
        for (what, bytes) in [("empty", []), ("cut short", Array(encoded.dropLast(5))), ("a flipped bit", flipped),
                              ("another version", state.encoded), ("no signature", Array(encoded.dropFirst(8)))] {
            #expect(throws: AssetPackArchiveError.self, "\(what)") { try ArchiveArrivalState(decoding: bytes, path: "state") }
        }
    }

    @Test("A state whose digests, header bytes or files do not fit is refused, naming why")
    func statesThatDoNotFit() throws {
        let arrival = try Arrival()
        let sink = arrival.newSink()
        let digester = arrival.started(sink, upTo: 30_000)
        let state = ArchiveArrivalState(digester: digester.savedState, sink: sink.position)
        let sealed = digester.sealedBytes
        let position = try #require(state.sink)
        #expect(position.fileIndex >= 0, "the checkpoint falls inside a file")
        let current = sink.folder.appending(path: arrival.header.files[position.fileIndex].path)
        let ended = sink.folder.appending(path: arrival.header.files[0].path)

        func refusal(_ change: (inout ArchiveArrivalState) -> Void = { _ in }, sealed bytes: [UInt8]? = nil) -> String? {
            var changed = state
            change(&changed)
            do {
                _ = try arrival.restore(changed.encoded, sealed: bytes ?? sealed)
                return nil
            } catch {
                #expect(error.kind == .unresumable)
                return error.problem
            }
        }
        #expect(refusal() == nil, "the state as saved fits")
        var otherHeader = sealed
        otherHeader[otherHeader.count - 2] ^= 1
        #expect(refusal(sealed: otherHeader) != nil, "other header bytes")
        #expect(refusal(sealed: Array(sealed.dropLast())) != nil, "header bytes cut short")
        #expect(refusal { $0.digester.byteCount += 1 } != nil, "a byte count the digest state does not have")
        #expect(refusal { $0.digester.whole[8] ^= 0x40 } != nil, "a digest state of another context size")
        #expect(refusal { $0.digester.fileRemaining += 1 } != nil, "a position inside the file that does not match the count")
        #expect(refusal { $0.digester.filesDone = 99 } != nil, "more files than the header lists")
        #expect(refusal { $0.sink?.filesEnded += 1 } != nil, "a sink ahead of the digests' file")
        #expect(refusal { $0.sink?.written = Int64.max } != nil, "more bytes written than the file holds")
        #expect(refusal { $0.sink?.folderName = "../elsewhere" } != nil, "a folder outside the staging folder")

        // The files on disk.
        let original = try Data(contentsOf: ended)
        try Data(original.dropLast()).write(to: ended)
        #expect(refusal() != nil, "a file counted as ended is short")
        try original.write(to: ended)
        let written = try Data(contentsOf: current)
        try Data(written.dropLast()).write(to: current)
        #expect(refusal()?.contains("does not hold") == true, "the file being written lost bytes")
        try written.write(to: current)
        try FileManager.default.removeItem(at: sink.folder)
        #expect(refusal()?.contains("not there") == true, "the folder is gone")
    }

    @Test("A state of another pack version's download is refused")
    func otherPackVersion() throws {
        let arrival = try Arrival()
        let sink = arrival.newSink()
        let digester = arrival.started(sink, upTo: 30_000)
        let state = ArchiveArrivalState(digester: digester.savedState, sink: sink.position)
        #expect(throws: AssetPackArchiveError.self) {
            _ = try state.resumingSink(in: arrival.staging, sealedBytes: digester.sealedBytes,
                                       expecting: AssetPackDownloadIdentifier(packID: "Tutorial", version: 2))
        }
    }
}
