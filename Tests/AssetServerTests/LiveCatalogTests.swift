/*
Abstract:
Live catalog: deterministic generation, a manifest that matches its files, and manifests built from media folders.
*/

import Foundation
import Testing
import TestSupport

@Suite("Catalog", .serialized, .timeLimit(.minutes(3)))
struct LiveCatalogTests {
    /// Every regular file under `folder`, by relative path.
    private func files(in folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count))
            result[relative] = try Data(contentsOf: url)
        }
        return result
    }

    @Test("A catalog generated twice in two folders is byte-identical, manifest included")
    func generationIsDeterministic() async throws {
        let first = try TemporaryDirectory(prefix: "catalog-a")
        let second = try TemporaryDirectory(prefix: "catalog-b")
        for folder in [first, second] {
            try await withAssetServer(catalogURL: folder.url, sessions: 4, sessionSize: 65_536) { server in
                let status = try await server.raw("GET", "/manifest.json").statusCode
                #expect(status == 200)
            }
        }
        let a = try files(in: first.url)
        let b = try files(in: second.url)
        #expect(a.keys.contains("/manifest.json"))
        #expect(a.count >= 5, "expected the manifest and four sessions, found \(a.keys.sorted())")
        #expect(a.keys.sorted() == b.keys.sorted())
        for (path, data) in a {
            #expect(b[path] == data, "\(path) differs between two generations")
        }
    }

    @Test("Starting again on an existing catalog serves it unchanged")
    func existingCatalogIsKept() async throws {
        let folder = try TemporaryDirectory(prefix: "catalog-kept")
        try await withAssetServer(catalogURL: folder.url) { _ in }
        let before = try files(in: folder.url)
        let manifestURL = folder.appending("manifest.json")
        let modified = try FileManager.default.attributesOfItem(atPath: manifestURL.path)[.modificationDate] as? Date
        try await withAssetServer(catalogURL: folder.url, sessions: 7) { server in
            let count = try await server.manifest().sessions.count
            #expect(count == 3, "an existing manifest is served, not regenerated")
        }
        #expect(try files(in: folder.url) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: manifestURL.path)[.modificationDate] as? Date == modified)
    }

    @Test("The generated manifest's sizes and SHA-256 match the files, checked with sha256sum")
    func manifestMatchesFiles() async throws {
        try await withAssetServer(sessions: 5, sessionSize: 65_536) { server in
            let manifest = try await server.manifest()
            #expect(manifest.version >= 1)
            #expect(manifest.sessions.count == 5)
            #expect(manifest.sessions.filter(\.essential).count == 2)
            #expect(Set(manifest.sessions.map(\.id)).count == 5, "ids are unique")
            #expect(Set(manifest.sessions.map(\.fileSize)).count > 1, "sizes are spread around --session-size")
            let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
            // A quarter to four times --session-size, typed here: inferred inside #expect it was slow to type-check.
            let spread: ClosedRange<Int64> = 16_384...262_144
            for session in manifest.sessions {
                #expect(!session.id.isEmpty && session.id.allSatisfy(allowed.contains), "\(session.id)")
                #expect(!session.title.isEmpty)
                #expect(!session.url.contains("://") && !session.url.hasPrefix("/"), "\(session.url) is relative")
                #expect(spread.contains(session.fileSize), "\(session.id): \(session.fileSize)")
                let file = server.catalogURL.appendingPathComponent(session.url)
                let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int64
                #expect(size == session.fileSize, "\(session.id)")
                #expect(try await sha256sum(file) == session.sha256.lowercased(), "\(session.id)")
                let served = try await server.raw("HEAD", session.path)
                #expect(served.statusCode == 200)
                #expect(served.value(forHeader: "Content-Length") == String(session.fileSize))
            }
        }
    }

    @Test("Every session downloads intact through URLSession, all at once")
    func parallelDownloadsMatchManifest() async throws {
        try await withAssetServer(sessions: 6, sessionSize: 65_536) { server in
            let manifest = try await server.manifest()
            let folder = try TemporaryDirectory(prefix: "downloads")
            let downloads = try await withThrowingTaskGroup(of: (LiveManifest.Entry, [UInt8], Int).self) { group in
                for session in manifest.sessions {
                    // Relative URLs resolve against the manifest's own URL, as the app resolves them.
                    let url = try #require(URL(string: session.url, relativeTo: server.url("/manifest.json")))
                    group.addTask {
                        let (body, response) = try await LiveHTTP.fetch(url.absoluteURL)
                        return (session, body, response.statusCode)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(downloads.count == 6)
            for (session, body, status) in downloads {
                #expect(status == 200)
                #expect(Int64(body.count) == session.fileSize, "\(session.id)")
                let file = folder.appending(session.id)
                try Data(body).write(to: file)
                #expect(try await sha256sum(file) == session.sha256.lowercased(), "\(session.id)")
            }
        }
    }

    @Test("A folder of media files is served as it is, and --print-manifest turns it into a catalog")
    func mediaFolderServedAsItIs() async throws {
        let folder = try TemporaryDirectory(prefix: "media")
        let media = [
            "keynote.mp4": patternBytes(count: 40_000, seed: 3),
            "episode-1.mp3": patternBytes(count: 25_000, seed: 4),
        ]
        for (name, bytes) in media {
            try Data(bytes).write(to: folder.appending(name))
        }
        try await withAssetServer(catalogURL: folder.url) { server in
            #expect(try await server.raw("GET", "/manifest.json").statusCode == 404)
            let audio = try await server.raw("GET", "/episode-1.mp3")
            #expect(audio.statusCode == 200 && audio.body == media["episode-1.mp3"])
            #expect(audio.value(forHeader: "Content-Type") == "audio/mpeg")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appending("manifest.json").path))

        let printed = try await runCommand(
            try ProductsDirectory.executable(named: "asset-server").path,
            arguments: ["--catalog", folder.url.path, "--print-manifest"])
        #expect(printed.status.isSuccess, "\(printed.standardError)")
        try Data(printed.standardOutput.utf8).write(to: folder.appending("manifest.json"))
        try await withAssetServer(catalogURL: folder.url) { server in
            let manifest = try await server.manifest()
            for (name, bytes) in media {
                let session = try #require(
                    manifest.sessions.first { $0.url.hasSuffix(name) }, "\(name) is missing from \(manifest.sessions.map(\.url))"
                )
                #expect(session.fileSize == Int64(bytes.count))
                #expect(session.sha256.lowercased() == (try await sha256sum(folder.appending(name))))
                let response = try await server.raw("GET", session.path)
                #expect(response.statusCode == 200)
                #expect(response.body == bytes)
            }
        }
    }
}
