/*
Abstract:
Unit tests of the SHA-256 whose state is saved and restored: a digest continued in another value is the digest of all the bytes, and a damaged state is refused.
*/

@testable import AssetPackArchive
import Foundation
import Testing

@Suite("A SHA-256 saved and restored")
struct DigestStateTests {
    /// Bytes no run of which repeats within a block.
    private static let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ $0 >> 8) }

    private static func digest(_ bytes: ArraySlice<UInt8>) -> String {
        var digest = ArchiveDigest()
        digest.update(Array(bytes))
        return digest.finalize()
    }

    @Test("The digest of A, exported, imported, then B, is the digest of A and B, wherever A ends")
    func continuedDigest() throws {
        let whole = Self.digest(Self.bytes[...])
        for split in [0, 1, 55, 63, 64, 65, 4096, 100_001, Self.bytes.count] {
            var first = ArchiveDigest()
            first.update(Array(Self.bytes[..<split]))
            let state = first.exportedState
            var second = try #require(ArchiveDigest(importing: state), "the state after \(split) bytes")
            #expect(second.byteCount == Int64(split))
            second.update(Array(Self.bytes[split...]))
            #expect(second.finalize() == whole, "split at \(split)")
        }
    }

    @Test("The digest is SHA-256: the standard test vector")
    func standardVector() {
        #expect(Self.digest(Array("abc".utf8)[...]) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("A state cut short, lengthened, of another version or context size, or of no digest's making, is refused")
    func damagedStates() {
        var digest = ArchiveDigest()
        digest.update(Array(Self.bytes[..<1000]))
        let state = digest.exportedState
        #expect(ArchiveDigest(importing: state) != nil)
        func changed(_ index: Int, to value: UInt8) -> [UInt8] {
            var copy = state
            copy[index] = value
            return copy
        }
        // The layout: "S256", version, context size (32-bit little-endian each), then SHA256_CTX:
        // h[8], Nl, Nh, data[16] (32-bit words), num, md_len.
        let context = 12, num = context + 32 + 8 + 64, mdLength = num + 4
        let refused: [(String, [UInt8])] = [
            ("empty", []),
            ("cut short", Array(state.dropLast())),
            ("lengthened", state + [0]),
            ("another tag", changed(0, to: UInt8(ascii: "X"))),
            ("another version", changed(4, to: 2)),
            ("another context size", changed(8, to: state[8] &+ 4)),
            ("a partial block that does not match the count", changed(num, to: state[num] &+ 1)),
            ("another digest length", changed(mdLength, to: 28)),
        ]
        for (what, bytes) in refused {
            #expect(ArchiveDigest(importing: bytes) == nil, "\(what) is refused")
        }
    }
}
