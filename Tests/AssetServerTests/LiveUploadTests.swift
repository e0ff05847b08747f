/*
Abstract:
Live uploads: PUT and POST to /uploads/NAME store the body in the catalog's uploads folder, and nothing else, nowhere else.
*/

import Foundation
import SessionKit
import Testing
import TestSupport

@Suite("Uploads", .serialized, .timeLimit(.minutes(3)))
struct LiveUploadTests {
    /// The names in the catalog's uploads folder, hidden ones included.
    func uploads(_ server: AssetServerProcess) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: server.catalogURL.appending(path: "uploads").path))?.sorted() ?? []
    }

    @Test("A PUT stores the body whole, answers 201 with its size and SHA-256, and the file is served back",
          arguments: ["PUT", "POST"])
    func uploadIsStored(method: String) async throws {
        try await withAssetServer { server in
            let body = patternBytes(count: 300_000, seed: 3)
            let client = try RawHTTPClient(port: server.port)
            let response = try await client.request(method, "/uploads/scores-1.bin", body: body)
            #expect(response.statusCode == 201, "\(response)")
            #expect(response.value(forHeader: "Location") == "/uploads/scores-1.bin")
            let answer = try JSONDecoder().decode([String: JSONField].self, from: Data(response.body))
            #expect(answer["size"] == .number(300_000))
            #expect(answer["sha256"] == .text(SHA256.hexDigest(of: Data(body))))
            #expect(try server.fileBytes("/uploads/scores-1.bin") == body)
            #expect(uploads(server) == ["scores-1.bin"])
            // The connection stays usable, and the upload is a catalog file like any other.
            #expect(try await client.request("GET", "/uploads/scores-1.bin").body == body)
        }
    }

    @Test("A second upload of a name replaces the first")
    func uploadReplaces() async throws {
        try await withAssetServer { server in
            let first = try await server.rawUpload("/uploads/save.json", Array("first".utf8))
            let second = try await server.rawUpload("/uploads/save.json", Array("second".utf8))
            #expect(first.statusCode == 201 && second.statusCode == 201, "\(first) \(second)")
            #expect(try server.fileBytes("/uploads/save.json") == Array("second".utf8))
            #expect(uploads(server) == ["save.json"])
        }
    }

    @Test("A name that is not one plain path component is refused and nothing is written",
          arguments: ["/uploads/..%2Fescape.bin", "/uploads/../escape.bin", "/uploads/a%2Fb.bin", "/uploads/.hidden",
                      "/uploads/", "/uploads/na%00me", "/uploads/sub/file.bin", "/uploads/caf%C3%A9.bin"])
    func hostileNamesAreRefused(target: String) async throws {
        try await withAssetServer { server in
            let before = try FileManager.default.contentsOfDirectory(atPath: server.catalogURL.path).sorted()
            let response = try await server.rawUpload(target, Array("payload".utf8))
            #expect(response.statusCode == 400, "\(target): \(response)")
            #expect(uploads(server).isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: server.catalogURL.path).sorted() == before)
            #expect(!FileManager.default.fileExists(atPath: server.catalogURL.deletingLastPathComponent()
                .appending(path: "escape.bin").path))
        }
    }

    @Test("A body over the limit is refused with 413 before it is read")
    func oversizedUploadIsRefused() async throws {
        try await withAssetServer(arguments: ["--max-upload-bytes", "1000"]) { server in
            let small = try await server.rawUpload("/uploads/small.bin", patternBytes(count: 1000))
            #expect(small.statusCode == 201, "\(small)")
            let response = try await server.rawUpload("/uploads/big.bin", patternBytes(count: 1001))
            #expect(response.statusCode == 413, "\(response)")
            #expect(uploads(server) == ["small.bin"])
        }
    }

    @Test("An uploads folder that is a link is not followed")
    func linkedFolderIsRefused() async throws {
        let outside = try TemporaryDirectory(prefix: "upload-outside")
        defer { outside.remove() }
        try await withAssetServer { server in
            try FileManager.default.createSymbolicLink(at: server.catalogURL.appending(path: "uploads"),
                                                       withDestinationURL: outside.url)
            let response = try await server.rawUpload("/uploads/escape.bin", Array("payload".utf8))
            #expect(response.statusCode == 500, "\(response)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: outside.url.path).isEmpty)
        }
    }

    @Test("A body cut short leaves no file, not even a partial one")
    func cutBodyLeavesNothing() async throws {
        let folder = try TemporaryDirectory(prefix: "upload-log")
        defer { folder.remove() }
        let log = folder.url.appending(path: "access.log")
        try await withAssetServer(arguments: ["--access-log", log.path]) { server in
            let client = try RawHTTPClient(port: server.port)
            try await client.send("PUT /uploads/cut.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n")
            try await client.send(patternBytes(count: 5000))
            try await poll(until: { uploads(server).count == 1 }, "the partial file of the upload")
            client.close()
            try await poll(until: {
                ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains(#""path":"/uploads/cut.bin""#)
            }, "the server to log the cut upload")
            #expect(uploads(server).isEmpty)
        }
    }
}

/// A JSON value of the upload's answer: a number or a string.
enum JSONField: Decodable, Equatable {
    case number(Int64)
    case text(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            self = .number(number)
        } else {
            self = .text(try container.decode(String.self))
        }
    }
}

extension AssetServerProcess {
    /// Sends one upload on a new connection and reads the answer.
    func rawUpload(_ target: String, _ body: [UInt8]) async throws -> RawHTTPResponse {
        let client = try RawHTTPClient(port: port)
        defer { client.close() }
        return try await client.request("PUT", target, body: body)
    }
}
