/*
Abstract:
Live conditional requests: If-None-Match → 304 before Range, If-Range with entity tags and dates (RFC 9110 §13).
*/

import Foundation
import Testing
import TestSupport

@Suite("Conditional requests", .serialized, .timeLimit(.minutes(3)))
struct LiveConditionalTests {
    /// A fixed modification time, well in the past, so Last-Modified is a strong validator.
    private static let pastDate = Date(timeIntervalSince1970: 1_718_038_800)  // 2024-06-10 17:00:00 UTC
    private static let pastDateText = "Mon, 10 Jun 2024 17:00:00 GMT"

    /// Starts a server, reads the first session's validators, and runs `body`.
    private func withSession(
        _ body: (AssetServerProcess, LiveManifest.Entry, [UInt8], _ etag: String) async throws -> Void
    ) async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let full = try await server.raw("GET", entry.path)
            let etag = try #require(full.value(forHeader: "ETag"))
            try await body(server, entry, file, etag)
        }
    }

    @Test("If-None-Match with the current ETag answers 304 with validators and no body")
    func ifNoneMatchHit() async throws {
        try await withSession { server, entry, file, etag in
            let client = try RawHTTPClient(port: server.port)
            let lastModified = try await client.request("HEAD", entry.path).value(forHeader: "Last-Modified")
            let response = try await client.request("GET", entry.path, headers: ["If-None-Match": etag])
            #expect(response.statusCode == 304, "\(response)")
            #expect(response.value(forHeader: "ETag") == etag)
            #expect(response.value(forHeader: "Last-Modified") == lastModified)
            // A 304 has no body: the next answer on this connection must start right away.
            let next = try await client.request("GET", entry.path)
            #expect(next.statusCode == 200)
            #expect(next.body == file)
        }
    }

    @Test("If-None-Match: * matches any existing file")
    func ifNoneMatchStar() async throws {
        try await withSession { server, entry, _, _ in
            let response = try await server.raw("GET", entry.path, headers: ["If-None-Match": "*"])
            #expect(response.statusCode == 304, "\(response)")
        }
    }

    @Test("If-None-Match with a list containing the ETag answers 304")
    func ifNoneMatchList() async throws {
        try await withSession { server, entry, _, etag in
            let response = try await server.raw("GET", entry.path, headers: ["If-None-Match": "\"stale\", \(etag), \"other\""])
            #expect(response.statusCode == 304, "\(response)")
        }
    }

    @Test("If-None-Match with other tags sends the full file")
    func ifNoneMatchMiss() async throws {
        try await withSession { server, entry, file, _ in
            let response = try await server.raw("GET", entry.path, headers: ["If-None-Match": "\"stale\", \"other\""])
            #expect(response.statusCode == 200, "\(response)")
            #expect(response.body == file)
        }
    }

    @Test("If-None-Match uses weak comparison: W/ plus the ETag still answers 304")
    func ifNoneMatchWeak() async throws {
        try await withSession { server, entry, _, etag in
            let response = try await server.raw("GET", entry.path, headers: ["If-None-Match": "W/\(etag)"])
            #expect(response.statusCode == 304, "\(response)")
        }
    }

    @Test("If-None-Match is evaluated before Range: a match is 304, not 206")
    func ifNoneMatchBeforeRange() async throws {
        try await withSession { server, entry, _, etag in
            let response = try await server.raw("GET", entry.path, headers: ["If-None-Match": etag, "Range": "bytes=0-9"])
            #expect(response.statusCode == 304, "\(response)")
            #expect(response.value(forHeader: "Content-Range") == nil)
        }
    }

    @Test("HEAD with a matching If-None-Match answers 304")
    func headIfNoneMatch() async throws {
        try await withSession { server, entry, _, etag in
            let response = try await server.raw("HEAD", entry.path, headers: ["If-None-Match": etag])
            #expect(response.statusCode == 304, "\(response)")
            #expect(response.value(forHeader: "ETag") == etag)
        }
    }

    @Test("If-Match with a stale tag answers 412, with the current tag 200")
    func ifMatch() async throws {
        try await withSession { server, entry, file, etag in
            let stale = try await server.raw("GET", entry.path, headers: ["If-Match": "\"stale\""])
            #expect(stale.statusCode == 412, "\(stale)")
            let current = try await server.raw("GET", entry.path, headers: ["If-Match": etag])
            #expect(current.statusCode == 200)
            #expect(current.body == file)
        }
    }

    @Test("If-Range with the current ETag honours the range")
    func ifRangeMatchingEntityTag() async throws {
        try await withSession { server, entry, file, etag in
            let response = try await server.raw("GET", entry.path, headers: ["Range": "bytes=10-19", "If-Range": etag])
            #expect(response.statusCode == 206, "\(response)")
            #expect(response.value(forHeader: "Content-Range") == "bytes 10-19/\(file.count)")
            #expect(response.body == Array(file[10...19]))
        }
    }

    @Test("If-Range with a stale ETag sends the whole new file as 200")
    func ifRangeStaleEntityTag() async throws {
        try await withSession { server, entry, file, _ in
            let response = try await server.raw("GET", entry.path, headers: ["Range": "bytes=10-19", "If-Range": "\"stale\""])
            #expect(response.statusCode == 200, "\(response)")
            #expect(response.value(forHeader: "Content-Range") == nil)
            #expect(response.body == file)
        }
    }

    @Test("If-Range needs a strong match: a weak ETag sends the whole file")
    func ifRangeWeakEntityTag() async throws {
        try await withSession { server, entry, file, etag in
            let response = try await server.raw("GET", entry.path, headers: ["Range": "bytes=10-19", "If-Range": "W/\(etag)"])
            #expect(response.statusCode == 200, "\(response)")
            #expect(response.body == file)
        }
    }

    @Test("If-Range with the exact Last-Modified date honours the range")
    func ifRangeMatchingDate() async throws {
        try await withAssetServer { server in
            try server.writeFile("/sessions/dated.bin", patternBytes(count: 4096))
            let url = server.catalogURL.appendingPathComponent("sessions/dated.bin")
            try FileManager.default.setAttributes([.modificationDate: Self.pastDate], ofItemAtPath: url.path)
            let head = try await server.raw("HEAD", "/sessions/dated.bin")
            #expect(head.value(forHeader: "Last-Modified") == Self.pastDateText)
            let response = try await server.raw(
                "GET", "/sessions/dated.bin", headers: ["Range": "bytes=0-9", "If-Range": Self.pastDateText]
            )
            #expect(response.statusCode == 206, "\(response)")
            #expect(response.body == Array(patternBytes(count: 4096)[0...9]))
        }
    }

    @Test("If-Range with an older date sends the whole file as 200")
    func ifRangeOlderDate() async throws {
        try await withAssetServer { server in
            let bytes = patternBytes(count: 4096)
            try server.writeFile("/sessions/dated.bin", bytes)
            let url = server.catalogURL.appendingPathComponent("sessions/dated.bin")
            try FileManager.default.setAttributes([.modificationDate: Self.pastDate], ofItemAtPath: url.path)
            let response = try await server.raw(
                "GET", "/sessions/dated.bin",
                headers: ["Range": "bytes=0-9", "If-Range": "Sun, 09 Jun 2024 17:00:00 GMT"]
            )
            #expect(response.statusCode == 200, "\(response)")
            #expect(response.body == bytes)
        }
    }

    @Test("Rewriting a file changes its ETag, so an old If-Range restarts the download")
    func rewrittenFileChangesEntityTag() async throws {
        try await withAssetServer { server in
            let original = patternBytes(count: 2048, seed: 1)
            let replaced = patternBytes(count: 2048, seed: 2)
            let url = try server.writeFile("/sessions/changing.bin", original)
            let oldTag = try #require(try await server.raw("HEAD", "/sessions/changing.bin").value(forHeader: "ETag"))
            try Data(replaced).write(to: url)
            let response = try await server.raw(
                "GET", "/sessions/changing.bin", headers: ["Range": "bytes=100-", "If-Range": oldTag]
            )
            #expect(response.statusCode == 200, "\(response)")
            #expect(response.body == replaced)
            #expect(response.value(forHeader: "ETag") != oldTag)
        }
    }
}
