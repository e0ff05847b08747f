/*
Abstract:
Tests of the catalog's game data: a version file that names a deterministic archive by its size and SHA-256.
*/

import AssetPackArchive
@testable import AssetServer
import Foundation
import SessionKit
import Testing
import TestSupport

@Suite("The catalog's game data")
struct GameDataCatalogTests {
    struct VersionFile: Decodable, Equatable {
        var version: Int
        var archive: String
        var size: Int
        var sha256: String
    }

    func versionFile(in catalog: URL) throws -> VersionFile {
        try JSONDecoder().decode(VersionFile.self, from: Data(contentsOf: catalog.appending(path: "game/version.json")))
    }

    @Test("A generated catalog has game/version.json describing its archive, the same bytes on every run")
    func generated() throws {
        let first = try TemporaryDirectory(prefix: "game-catalog")
        let second = try TemporaryDirectory(prefix: "game-catalog")
        _ = try Catalog.prepare(at: first.url, sessionCount: 2, sessionSize: 64 * 1024)
        _ = try Catalog.prepare(at: second.url, sessionCount: 2, sessionSize: 64 * 1024)
        let version = try versionFile(in: first.url)
        #expect(version.version == 1)
        #expect(version.archive == "GameData-v1.aar")
        let archive = try Data(contentsOf: first.url.appending(path: "game/GameData-v1.aar"))
        #expect(archive.count == version.size)
        #expect(version.size > 3 * 64 * 1024, "three session sizes of files, plus the archive's own bytes")
        var hash = SHA256()
        hash.update(data: archive)
        let digest = hash.finalize()
        #expect(digest == version.sha256)
        #expect(try versionFile(in: second.url) == version, "generation is deterministic")
        let reader = try AssetPackArchiveReader(url: first.url.appending(path: "game/GameData-v1.aar"))
        #expect(try reader.extract(into: nil, wholeFileDigest: true) == version.sha256)
        #expect(reader.header.files.count == 8)
    }

    @Test("The version file of an archive you bring names its size, SHA-256 and the version you give")
    func broughtArchive() throws {
        let folder = try TemporaryDirectory(prefix: "game-brought")
        let archive = folder.url.appending(path: "MyData.aar")
        let bytes = Data("levels of a game brought by hand".utf8)
        try bytes.write(to: archive)
        let data = try Catalog.gameVersionFile(describing: archive, version: 7)
        let version = try JSONDecoder().decode(VersionFile.self, from: data)
        var hash = SHA256()
        hash.update(data: bytes)
        let digest = hash.finalize()
        #expect(version == VersionFile(version: 7, archive: "MyData.aar", size: bytes.count, sha256: digest))
        #expect(throws: AssetServerError.self) {
            try Catalog.gameVersionFile(describing: folder.url.appending(path: "missing.aar"), version: 1)
        }
    }
}
