/*
Abstract:
Live byte-range requests against the real asset-server: 206, clamping, 416 and ignored ranges (RFC 9110 §14).
*/

import Foundation
import Testing
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Byte ranges", .serialized, .timeLimit(.minutes(3)))
struct LiveRangeTests {
    /// Checks a 206 answer carries exactly bytes `first...last` of `file`.
    private func expectPartial(
        _ response: RawHTTPResponse, _ first: Int, _ last: Int, of file: [UInt8],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.statusCode == 206, "\(response)", sourceLocation: sourceLocation)
        #expect(response.value(forHeader: "Content-Range") == "bytes \(first)-\(last)/\(file.count)",
                sourceLocation: sourceLocation)
        #expect(response.value(forHeader: "Content-Length") == String(last - first + 1), sourceLocation: sourceLocation)
        #expect(response.body == Array(file[first...last]), sourceLocation: sourceLocation)
    }

    @Test("A plain GET returns the whole file with Accept-Ranges and strong validators")
    func fullGet() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let (body, response) = try await LiveHTTP.fetch(server.url(entry.path))
            #expect(response.statusCode == 200)
            #expect(body == file)
            #expect(body.count == Int(entry.fileSize))
            #expect(response.value(forHTTPHeaderField: "Accept-Ranges") == "bytes")
            let etag = try #require(response.value(forHTTPHeaderField: "ETag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""), "a strong ETag is a quoted string without W/")
            #expect(response.value(forHTTPHeaderField: "Last-Modified")?.hasSuffix(" GMT") == true)
            #expect(response.value(forHTTPHeaderField: "Content-Length") == String(file.count))
        }
    }

    @Test("bytes=0-99 returns the first hundred bytes as 206 Partial Content")
    func firstHundredBytes() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let (body, response) = try await LiveHTTP.fetch(server.url(entry.path), headers: ["Range": "bytes=0-99"])
            #expect(response.statusCode == 206)
            #expect(response.value(forHTTPHeaderField: "Content-Range") == "bytes 0-99/\(file.count)")
            #expect(body == Array(file[0...99]))
        }
    }

    @Test("bytes=0-0 returns exactly the first byte")
    func firstByteOnly() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            expectPartial(try await server.raw("GET", entry.path, headers: ["Range": "bytes=0-0"]), 0, 0, of: file)
        }
    }

    @Test("bytes=100- returns everything from offset 100 to the end")
    func openEndedRange() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            expectPartial(try await server.raw("GET", entry.path, headers: ["Range": "bytes=100-"]), 100, file.count - 1, of: file)
        }
    }

    @Test("bytes=-500 returns the last five hundred bytes")
    func suffixRange() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let response = try await server.raw("GET", entry.path, headers: ["Range": "bytes=-500"])
            expectPartial(response, file.count - 500, file.count - 1, of: file)
        }
    }

    @Test("A range on the last byte returns one byte")
    func lastByte() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let response = try await server.raw("GET", entry.path, headers: ["Range": "bytes=\(file.count - 1)-"])
            expectPartial(response, file.count - 1, file.count - 1, of: file)
        }
    }

    @Test("A range whose end lies beyond the file is clamped to the last byte")
    func rangeBeyondEndIsClamped() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let first = file.count - 10
            let response = try await server.raw("GET", entry.path, headers: ["Range": "bytes=\(first)-\(file.count + 1000)"])
            expectPartial(response, first, file.count - 1, of: file)
        }
    }

    @Test("A suffix longer than the file returns the whole file as 206")
    func suffixLongerThanFile() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let response = try await server.raw("GET", entry.path, headers: ["Range": "bytes=-\(file.count + 100)"])
            expectPartial(response, 0, file.count - 1, of: file)
        }
    }

    @Test("A range starting at or past the end is 416 with Content-Range bytes */SIZE", arguments: [0, 1, 5000])
    func firstByteBeyondEnd(pastEnd: Int) async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let response = try await server.raw("GET", entry.path, headers: ["Range": "bytes=\(file.count + pastEnd)-"])
            #expect(response.statusCode == 416, "\(response)")
            #expect(response.value(forHeader: "Content-Range") == "bytes */\(file.count)")
        }
    }

    @Test("bytes=-0 asks for nothing and is 416")
    func emptySuffixIsUnsatisfiable() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let response = try await server.raw("GET", entry.path, headers: ["Range": "bytes=-0"])
            #expect(response.statusCode == 416, "\(response)")
            #expect(response.value(forHeader: "Content-Range") == "bytes */\(file.count)")
        }
    }

    @Test(
        "A syntactically invalid Range is ignored and the whole file is sent",
        arguments: ["bytes=abc", "bytes=5-2", "items=0-9", "bytes 0-9", "bytes=--5", "bytes=0-9x", "bytes=", "bytes=1-2-3"]
    )
    func invalidRangeIsIgnored(range: String) async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let response = try await server.raw("GET", entry.path, headers: ["Range": range])
            #expect(response.statusCode == 200, "\(response)")
            #expect(response.value(forHeader: "Content-Range") == nil)
            #expect(response.body == file)
        }
    }

    @Test("Several ranges get the full body (200) or a correct multipart/byteranges answer")
    func multipleRanges() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let response = try await server.raw("GET", entry.path, headers: ["Range": "bytes=0-9,20-29"])
            if response.statusCode == 200 {
                #expect(response.body == file)
            } else {
                #expect(response.statusCode == 206, "\(response)")
                let type = try #require(response.value(forHeader: "Content-Type"))
                #expect(type.hasPrefix("multipart/byteranges"))
                #expect(response.body.count > 20)
            }
        }
    }

    @Test("HEAD with a range answers 206 with the range's headers and no body")
    func headWithRange() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let client = try RawHTTPClient(port: server.port)
            let head = try await client.request("HEAD", entry.path, headers: ["Range": "bytes=0-99"])
            #expect(head.statusCode == 206, "\(head)")
            #expect(head.value(forHeader: "Content-Range") == "bytes 0-99/\(file.count)")
            #expect(head.value(forHeader: "Content-Length") == "100")
            // Had the server sent a body after the HEAD answer, this next answer would not parse.
            let next = try await client.request("GET", entry.path, headers: ["Range": "bytes=0-3"])
            expectPartial(next, 0, 3, of: file)
        }
    }

    @Test("206 and 416 carry the same validators and Accept-Ranges as 200")
    func partialAnswersCarryValidators() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let full = try await server.raw("GET", entry.path)
            let partial = try await server.raw("GET", entry.path, headers: ["Range": "bytes=10-19"])
            let unsatisfiable = try await server.raw("GET", entry.path, headers: ["Range": "bytes=\(file.count)-"])
            let etag = try #require(full.value(forHeader: "ETag"))
            let lastModified = try #require(full.value(forHeader: "Last-Modified"))
            for response in [partial, unsatisfiable] {
                #expect(response.value(forHeader: "ETag") == etag, "\(response)")
                #expect(response.value(forHeader: "Last-Modified") == lastModified, "\(response)")
                #expect(response.value(forHeader: "Accept-Ranges") == "bytes", "\(response)")
            }
        }
    }

    @Test("A zero-length file is served as 200 with no body, and any range on it is 416")
    func zeroLengthFile() async throws {
        try await withAssetServer { server in
            try server.writeFile("/sessions/empty.mp4", [])
            let client = try RawHTTPClient(port: server.port)
            let full = try await client.request("GET", "/sessions/empty.mp4")
            #expect(full.statusCode == 200, "\(full)")
            #expect(full.value(forHeader: "Content-Length") == "0")
            #expect(full.body.isEmpty)
            let ranged = try await client.request("GET", "/sessions/empty.mp4", headers: ["Range": "bytes=0-"])
            #expect(ranged.statusCode == 416, "\(ranged)")
            #expect(ranged.value(forHeader: "Content-Range") == "bytes */0")
        }
    }

    @Test("Offsets above 4 GiB are served exactly")
    func offsetsAboveFourGiB() async throws {
        try await withAssetServer { server in
            // A sparse 5 GiB file costs no disk; only the marker's page is written.
            let size: UInt64 = 5 << 30
            let offset: UInt64 = (4 << 30) + 123
            let url = try server.writeFile("/sessions/huge.bin", [])
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: size)
            try handle.seek(toOffset: offset)
            try handle.write(contentsOf: Data("above-4GiB".utf8))
            try handle.close()
            let response = try await server.raw("GET", "/sessions/huge.bin", headers: ["Range": "bytes=\(offset)-\(offset + 9)"])
            #expect(response.statusCode == 206, "\(response)")
            #expect(response.value(forHeader: "Content-Range") == "bytes \(offset)-\(offset + 9)/\(size)")
            #expect(response.bodyText == "above-4GiB")
            let head = try await server.raw("HEAD", "/sessions/huge.bin")
            #expect(head.value(forHeader: "Content-Length") == String(size))
        }
    }
}
