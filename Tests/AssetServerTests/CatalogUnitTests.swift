/*
Abstract:
Unit tests for catalog preparation: deterministic generation, manifests from media files, and crash safety.
*/

@testable import AssetServer
import Foundation
import SessionKit
import Testing

struct CatalogUnitTests {
    private func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "asset-server-catalog-\(UUID().uuidString)")
    }

    private func contents(of folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in FileManager.default.subpaths(atPath: folder.path) ?? [] {
            var isDirectory: ObjCBool = false
            let url = folder.appending(path: path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[path] = try Data(contentsOf: url)
            }
        }
        return result
    }

    @Test("Generating a catalog twice gives byte-identical files and manifests")
    func deterministic() throws {
        let first = temporaryFolder()
        let second = temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let a = try Catalog.prepare(at: first, sessionCount: 4, sessionSize: 10_000)
        let b = try Catalog.prepare(at: second, sessionCount: 4, sessionSize: 10_000)
        #expect(a.origin == .generated)
        #expect(a.manifest == b.manifest)
        let filesA = try contents(of: first)
        #expect(filesA.count == 11, "the manifest, four sessions, three asset packs and their manifest, the game's archive and version file")
        #expect(filesA == (try contents(of: second)))
    }

    @Test("The manifest lists relative URLs, real sizes and SHA-256, and exactly two essential sessions")
    func manifestMatchesFiles() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = try Catalog.prepare(at: folder, sessionCount: 3, sessionSize: 20_001)
        #expect(catalog.manifest.sessions.map(\.id) == ["wwdc23-10108", "wwdc23-10006", "wwdc23-10164"])
        #expect(catalog.manifest.sessions.first?.title == "What's new in Background Assets")
        #expect(catalog.manifest.sessions.filter(\.essential).count == 2)
        for session in catalog.manifest.sessions {
            #expect(session.url.relativeString == "sessions/\(session.id).mp4")
            let file = folder.appending(path: session.url.relativeString)
            let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
            #expect(size == session.fileSize)
            #expect((15_000...25_001).contains(session.fileSize))
            #expect(try SHA256.hexDigest(ofFileAt: file) == session.sha256)
        }
        let reloaded = try Manifest.load(from: folder.appending(path: "manifest.json"))
        #expect(reloaded == catalog.manifest)
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: ".generating").path))
    }

    @Test("An existing manifest is used as is")
    func existingManifest() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try Catalog.prepare(at: folder, sessionCount: 2, sessionSize: 100)
        let again = try Catalog.prepare(at: folder, sessionCount: 7, sessionSize: 5)
        #expect(again.origin == .existingManifest)
        #expect(again.manifest.sessions.count == 2)
    }

    @Test("A folder of someone's files is served as it is; nothing is written into it")
    func foldersAreServedAsTheyAre() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["feeds", "audio"] {
            try FileManager.default.createDirectory(at: folder.appending(path: name), withIntermediateDirectories: true)
        }
        try Data("{}".utf8).write(to: folder.appending(path: "feeds/episodes.json"))
        try Data("mp3!".utf8).write(to: folder.appending(path: "audio/episode-1.mp3"))
        let before = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
        let catalog = try Catalog.prepare(at: folder, sessionCount: 2, sessionSize: 64)
        #expect(catalog.origin == .servedAsIs)
        #expect(catalog.manifest.sessions.isEmpty)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted() == before)
    }

    @Test("--print-manifest describes a folder's audio and video files without writing")
    func mediaFiles() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appending(path: "talks"), withIntermediateDirectories: true)
        try Data("one".utf8).write(to: folder.appending(path: "talks/My Talk #1.mp4"))
        try Data("two!".utf8).write(to: folder.appending(path: "b.MOV"))
        try Data("three".utf8).write(to: folder.appending(path: "c.mp3"))
        try Data("no".utf8).write(to: folder.appending(path: "notes.txt"))
        try Data("hidden".utf8).write(to: folder.appending(path: ".secret.mp4"))
        let manifest = try Catalog.manifestDescribingMedia(in: folder)
        let sessions = manifest.sessions
        #expect(sessions.map(\.id) == ["b", "c", "My-Talk--1"])
        #expect(sessions.map(\.url.relativeString) == ["b.MOV", "c.mp3", "talks/My%20Talk%20%231.mp4"])
        #expect(sessions.map(\.fileSize) == [4, 5, 3])
        #expect(sessions[2].sha256 == SHA256.hexDigest(of: Data("one".utf8)))
        #expect(sessions.allSatisfy { Manifest.isValidIdentifier($0.id) })
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "manifest.json").path))
    }

    @Test("A leftover staging folder from an interrupted run makes the next run generate again")
    func interruptedGeneration() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appending(path: "sessions"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appending(path: ".generating"), withIntermediateDirectories: true)
        try Data("half".utf8).write(to: folder.appending(path: "sessions/wwdc23-10108.mp4"))
        let catalog = try Catalog.prepare(at: folder, sessionCount: 2, sessionSize: 64)
        #expect(catalog.origin == .generated)
        let data = try Data(contentsOf: folder.appending(path: "sessions/wwdc23-10108.mp4"))
        #expect(data.count == catalog.manifest.sessions[0].fileSize)
    }

    @Test("Synthetic content depends only on the identifier")
    func syntheticContent() {
        func bytes(_ id: String, _ count: Int) -> [UInt8] {
            var content = SyntheticContent(identifier: id)
            var result = [UInt8](repeating: 0, count: count)
            result.withUnsafeMutableBytes { content.fill($0) }
            return result
        }
        #expect(bytes("wwdc23-10108", 13) == bytes("wwdc23-10108", 13))
        #expect(bytes("wwdc23-10108", 13) != bytes("wwdc23-10109", 13))
        #expect(SyntheticContent.size(for: "x", around: 0) == 0)
    }
}
