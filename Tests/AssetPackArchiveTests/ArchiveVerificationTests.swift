/*
Abstract:
Unit tests of reading archives: truncated, tampered, foreign and malicious archives are refused with the cause named.
*/

@testable import AssetPackArchive
import AssetPackFormat
import Foundation
import Testing

@Suite("Reading and verifying archives")
struct ArchiveVerificationTests {
    private let files = ["Videos/intro.m4v": String(repeating: "v", count: 3000), "notes.txt": "hello", "empty.txt": ""]

    @Test("An archive that was cut short is refused as truncated, wherever it was cut")
    func truncated() throws {
        let fixture = try PackFixture()
        let archive = try fixture.packageFiles(files, to: "P.aar")
        let bytes = try Data(contentsOf: archive)
        for length in [0, 5, 12, 40, bytes.count / 2, bytes.count - 33, bytes.count - 1] {
            let cut = fixture.root.appending(path: "cut-\(length).aar")
            try bytes.prefix(length).write(to: cut)
            do {
                _ = try AssetPackArchiveReader(url: cut)
                Issue.record("An archive cut to \(length) of \(bytes.count) bytes was accepted.")
            } catch {
                #expect([.truncated, .notAnArchive, .tampered].contains(error.kind), "at \(length): \(error)")
                if length > bytes.count / 3 { #expect(error.kind == .truncated, "at \(length): \(error)") }
            }
        }
    }

    @Test("A changed byte in a file is refused, naming that file")
    func tamperedFile() throws {
        let fixture = try PackFixture()
        let archive = try fixture.packageFiles(files, to: "P.aar")
        let reader = try AssetPackArchiveReader(url: archive)
        // Files follow the header in its order: find where "Videos/intro.m4v" starts.
        var offset = reader.sealedBytes.count
        for file in reader.header.files {
            if file.path == "Videos/intro.m4v" { break }
            offset += Int(file.size)
        }
        try fixture.flipByte(of: archive, at: offset + 1500)
        let tampered = try AssetPackArchiveReader(url: archive)
        do {
            try tampered.extract(into: nil)
            Issue.record("A tampered file was accepted.")
        } catch {
            #expect(error.kind == .tampered)
            #expect(error.problem.contains("Videos/intro.m4v"))
        }
    }

    @Test("A changed header is refused by the seal, and extra bytes after the end are refused")
    func tamperedHeaderAndExtraBytes() throws {
        let fixture = try PackFixture()
        let archive = try fixture.packageFiles(files, to: "P.aar")
        var bytes = try Data(contentsOf: archive)
        // "onDemand" becomes "onDemanc": still JSON, still a valid-looking header, but not the one sealed.
        let position = try #require(bytes.range(of: Data("onDemand".utf8)))
        bytes[position.upperBound - 1] = UInt8(ascii: "c")
        let changed = fixture.root.appending(path: "changed.aar")
        try bytes.write(to: changed)
        #expect(throws: AssetPackArchiveError.self) { _ = try AssetPackArchiveReader(url: changed) }
        do { _ = try AssetPackArchiveReader(url: changed) } catch { #expect(error.kind == .tampered) }

        let longer = fixture.root.appending(path: "longer.aar")
        try (try Data(contentsOf: archive) + Data([0])).write(to: longer)
        do {
            _ = try AssetPackArchiveReader(url: longer)
            Issue.record("An archive with an extra byte was accepted.")
        } catch {
            #expect(error.kind == .tampered)
        }
    }

    @Test("A file that is not an archive is refused as such")
    func notAnArchive() throws {
        let fixture = try PackFixture()
        let url = try fixture.write(String(repeating: "PK\u{3}\u{4} a zip file ", count: 10), to: "Tutorial.zip")
        do {
            _ = try AssetPackArchiveReader(url: url)
            Issue.record("A zip file was accepted.")
        } catch {
            #expect(error.kind == .notAnArchive)
            #expect(error.problem.contains("ba-package"))
        }
    }

    @Test("A sealed header whose path leaves the pack is refused before anything is written")
    func pathLeavingThePack() throws {
        let fixture = try PackFixture()
        let cases = ["../escape.txt", "/etc/passwd", "a/../../b", "a//b", "./a"]
        for path in cases {
            let header = #"{"formatVersion":1,"assetPackID":"Evil","version":1,"downloadPolicy":{"onDemand":{}},"directories":[],"files":[{"path":"\#(path)","size":1,"sha256":"\#(PackFixture.sha256("x"))"}]}"#
            let archive = try fixture.rawArchive(header: header, contents: Array("x".utf8), to: "evil.aar")
            do {
                _ = try AssetPackArchiveReader(url: archive)
                Issue.record("The path \(path) was accepted.")
            } catch {
                #expect(error.kind == .invalidHeader, "\(path): \(error)")
                #expect(error.problem.contains("files[0].path"), "\(path): \(error)")
            }
        }
    }

    @Test("A sealed header that lists a path twice, or uses a file as a folder, is refused")
    func conflictingPaths() throws {
        let fixture = try PackFixture()
        let digest = PackFixture.sha256("x")
        for files in [#"{"path":"a","size":1,"sha256":"\#(digest)"},{"path":"a","size":1,"sha256":"\#(digest)"}"#,
                      #"{"path":"a","size":1,"sha256":"\#(digest)"},{"path":"a/b","size":1,"sha256":"\#(digest)"}"#] {
            let header = #"{"formatVersion":1,"assetPackID":"P","version":1,"downloadPolicy":{"onDemand":{}},"directories":[],"files":[\#(files)]}"#
            let archive = try fixture.rawArchive(header: header, contents: Array("xx".utf8), to: "twice.aar")
            do {
                _ = try AssetPackArchiveReader(url: archive)
                Issue.record("\(files) was accepted.")
            } catch {
                #expect(error.kind == .invalidHeader, "\(error)")
            }
        }
    }

    @Test("A header of an unknown format version asks for the pack to be packaged again")
    func unknownFormatVersion() throws {
        let fixture = try PackFixture()
        let header = #"{"formatVersion":2,"assetPackID":"P","version":1,"downloadPolicy":{"onDemand":{}},"directories":[],"files":[]}"#
        let archive = try fixture.rawArchive(header: header, contents: [], to: "future.aar")
        do {
            _ = try AssetPackArchiveReader(url: archive)
            Issue.record("Format version 2 was accepted.")
        } catch {
            #expect(error.kind == .invalidHeader)
            #expect(error.problem.contains("formatVersion"))
        }
    }

    @Test("A sealed header whose file sizes overflow any offset is refused, by the reader and as the archive arrives",
          arguments: [["9223372036854775807"], ["4611686018427387904", "4611686018427387904"],
                      ["9223372036854775000"]])
    func sizesThatOverflow(sizes: [String]) throws {
        let fixture = try PackFixture()
        let digest = PackFixture.sha256("x")
        let files = sizes.enumerated().map { #"{"path":"f\#($0.offset)","size":\#($0.element),"sha256":"\#(digest)"}"# }
        let header = #"{"formatVersion":1,"assetPackID":"Huge","version":1,"downloadPolicy":{"onDemand":{}},"directories":[],"files":[\#(files.joined(separator: ","))]}"#
        let archive = try fixture.rawArchive(header: header, contents: Array("x".utf8), to: "huge.aar")
        do {
            _ = try AssetPackArchiveReader(url: archive)
            Issue.record("Sizes \(sizes) were accepted.")
        } catch {
            #expect(error.kind == .invalidHeader, "\(error)")
            #expect(error.problem.contains("add up to more than"), "\(error)")
        }
        // The digester reads the same header while the bytes arrive, on the transfer's thread.
        let digests = try AssetPackArchiveDigests(reading: archive)
        #expect(digests.fileSHA256s == nil)
    }
}
