/*
Abstract:
Tests for SHA-256 digests of data and of files streamed from disk.
*/

import Foundation
import SessionKit
import TestSupport
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    @Test("Known vectors give the standard digests")
    func knownVectors() {
        #expect(SHA256.hexDigest(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexDigest(of: Data("abc".utf8))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("Hashing in pieces equals hashing at once")
    func incrementalEqualsOneShot() {
        let data = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var hash = SHA256()
        hash.update(data: data.prefix(33_333))
        hash.update(data: data.dropFirst(33_333))
        #expect(hash.finalize() == SHA256.hexDigest(of: data))
    }

    @Test("A file larger than the read chunk hashes like sha256sum")
    func fileMatchesSha256sum() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appending(path: "video.mp4")
            let data = Data((0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 ^ ($0 >> 9)) })
            try data.write(to: url)
            let digest = try SHA256.hexDigest(ofFileAt: url)
            #expect(digest == SHA256.hexDigest(of: data))

            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["sha256sum", url.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(output.split(separator: " ").first.map(String.init) == digest)
        }
    }

    @Test("An unreadable file is an error naming it")
    func unreadableFile() {
        #expect(throws: SessionKitError.self) {
            try SHA256.hexDigest(ofFileAt: URL(fileURLWithPath: "/nonexistent/file"))
        }
    }
}
