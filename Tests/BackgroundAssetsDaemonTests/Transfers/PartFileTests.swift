/*
Abstract:
Tests that a staging file reserves the disk space of a large download without growing, and skips it for a small one.
*/

@testable import BackgroundAssetsDaemon
import Foundation
import Testing
import TestSupport

@Suite("Staging files")
struct PartFileTests {
    /// The bytes the file system has allocated to a file.
    static func allocatedBytes(_ url: URL) -> Int64 {
        var status = stat()
        return stat(url.path, &status) == 0 ? Int64(status.st_blocks) * 512 : -1
    }

    @Test("A large download's space is reserved up front; the file's length stays the bytes received")
    func reservesLargeFiles() throws {
        let folder = try TemporaryDirectory(prefix: "ba-part")
        let part = try PartFile(url: folder.appending("1.part"), durableLength: 0)
        try part.reserve(totalLength: 4 << 20)
        #expect(part.length == 0)
        #expect(Self.allocatedBytes(part.url) >= 4 << 20)
    }

    @Test("A small download reserves nothing: a full disk costs nothing to speak of to find midway")
    func skipsSmallFiles() throws {
        let folder = try TemporaryDirectory(prefix: "ba-part")
        let part = try PartFile(url: folder.appending("2.part"), durableLength: 0)
        try part.reserve(totalLength: PartFile.smallestReservation - 1)
        #expect(part.length == 0)
        #expect(Self.allocatedBytes(part.url) == 0)
    }
}
