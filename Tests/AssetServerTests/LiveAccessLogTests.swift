/*
Abstract:
Live access log: one JSON line per response whose byte count is the body bytes actually sent.
*/

import Foundation
import Testing
import TestSupport

@Suite("Access log", .serialized, .timeLimit(.minutes(3)))
struct LiveAccessLogTests {
    typealias Entry = AccessLogEntry

    /// Waits until the log holds at least `count` lines and decodes them.
    private func readLog(_ url: URL, count: Int) async throws -> [Entry] {
        try await poll("\(count) lines in \(url.path)") { () throws -> [Entry]? in
            let entries = try AccessLogEntry.entries(in: url)
            return entries.count >= count ? entries : nil
        }
    }

    @Test("Full, ranged, HEAD, 304 and 404 responses are logged with the body bytes sent")
    func byteCounts() async throws {
        let folder = try TemporaryDirectory(prefix: "access-log")
        let log = folder.appending("access.jsonl")
        try await withAssetServer(arguments: ["--access-log", log.path]) { server in
            let (entry, file) = try await server.firstSession()  // Logs the manifest GET.
            let manifestSize = try server.fileBytes("/manifest.json").count
            let client = try RawHTTPClient(port: server.port)
            let full = try await client.request("GET", entry.path)
            _ = try await client.request("GET", entry.path, headers: ["Range": "bytes=0-99"])
            _ = try await client.request("HEAD", entry.path)
            _ = try await client.request("GET", entry.path, headers: ["If-None-Match": full.value(forHeader: "ETag") ?? "*"])
            _ = try await client.request("GET", "/missing.mp4")
            // Connections are served concurrently, so lines of different connections may be in any order.
            let entries = try await readLog(log, count: 6)
            #expect(entries.count == 6)
            let expected = [
                Entry(method: "GET", path: "/manifest.json", range: nil, status: 200, bytes: Int64(manifestSize)),
                Entry(method: "GET", path: entry.path, range: nil, status: 200, bytes: Int64(file.count)),
                Entry(method: "GET", path: entry.path, range: "bytes=0-99", status: 206, bytes: 100),
                Entry(method: "HEAD", path: entry.path, range: nil, status: 200, bytes: 0),
                Entry(method: "GET", path: entry.path, range: nil, status: 304, bytes: 0),
            ]
            for line in expected {
                #expect(entries.contains(line), "no log line \(line) in \(entries)")
            }
            #expect(entries.contains { $0.path == "/missing.mp4" && $0.status == 404 }, "\(entries)")
        }
    }

    @Test("A connection cut by --drop-after is logged with the partial byte count")
    func droppedConnectionIsPartial() async throws {
        let folder = try TemporaryDirectory(prefix: "access-log")
        let log = folder.appending("access.jsonl")
        try await withAssetServer(arguments: ["--access-log", log.path, "--drop-after", "1500"]) { server in
            let manifest = try JSONDecoder().decode(LiveManifest.self, from: Data(try server.fileBytes("/manifest.json")))
            let entry = try #require(manifest.sessions.first)
            let response = try await server.raw("GET", entry.path)
            #expect(response.body.count == 1500)
            let entries = try await readLog(log, count: 1)
            #expect(entries.last?.path == entry.path)
            #expect(entries.last?.bytes == 1500)
        }
    }

    @Test("A client that hangs up early is logged with fewer bytes than the file")
    func clientHangUpIsPartial() async throws {
        let folder = try TemporaryDirectory(prefix: "access-log")
        let log = folder.appending("access.jsonl")
        try await withAssetServer(arguments: ["--access-log", log.path, "--throttle", "16384"]) { server in
            let size = 200_000
            try server.writeFile("/sessions/slow.bin", patternBytes(count: size))
            let client = try RawHTTPClient(port: server.port)
            try await client.send("GET /sessions/slow.bin HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try await client.readResponse(method: "HEAD")  // The head has arrived; the throttled body has barely started.
            client.close()
            let entries = try await readLog(log, count: 1)
            let logged = try #require(entries.last)
            #expect(logged.path == "/sessions/slow.bin")
            #expect(logged.bytes < Int64(size), "a client that hung up early was logged with \(logged.bytes) bytes")
        }
    }
}
