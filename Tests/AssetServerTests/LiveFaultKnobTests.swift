/*
Abstract:
Live fault knobs: throttle, drop-after, injected statuses, latency, corruption and Basic auth.
*/

import Foundation
import Testing
import TestSupport

@Suite("Fault knobs", .serialized, .timeLimit(.minutes(3)))
struct LiveFaultKnobTests {
    @Test("--throttle limits each response to about the given bytes per second")
    func throttleLimitsRate() async throws {
        let rate = 32_768
        try await withAssetServer(arguments: ["--throttle", String(rate)]) { server in
            let bytes = patternBytes(count: 3 * rate)
            try server.writeFile("/sessions/throttled.bin", bytes)
            let clock = ContinuousClock()
            let start = clock.now
            let response = try await server.raw("GET", "/sessions/throttled.bin")
            let elapsed = clock.now - start
            #expect(response.body == bytes)
            // Three seconds' worth of bytes; even allowing a one-second burst it takes two seconds. (The
            // pacing itself, too slow as well as too fast, is FaultKnobUnitTests' token bucket, on given times.)
            #expect(elapsed >= .milliseconds(1_600), "98304 bytes at 32768 B/s arrived in \(elapsed)")
        }
    }

    @Test("--drop-after cuts the body at exactly N bytes and closes the connection")
    func dropAfterCutsBody() async throws {
        try await withAssetServer(arguments: ["--drop-after", "1000"]) { server in
            let entry = try #require(try await server.manifest().sessions.first)
            let file = try server.fileBytes(entry.path)
            let client = try RawHTTPClient(port: server.port)
            let response = try await client.request("GET", entry.path)
            #expect(response.statusCode == 200)
            #expect(response.value(forHeader: "Content-Length") == String(file.count))
            #expect(response.isTruncated)
            #expect(response.body == Array(file[..<1000]))
            #expect(await client.waitForClose(), "the server closed the connection after the cut")
            let ranged = try await server.raw("GET", entry.path, headers: ["Range": "bytes=100-"])
            #expect(ranged.statusCode == 206)
            #expect(ranged.body == Array(file[100..<1100]))
        }
    }

    @Test("--fail PATH=503x2 answers 503 with Retry-After twice, then serves normally")
    func failCountedThenServes() async throws {
        try await withAssetServer(arguments: ["--fail", "/manifest.json=503x2"]) { server in
            for attempt in 1...2 {
                let response = try await server.raw("GET", "/manifest.json")
                #expect(response.statusCode == 503, "attempt \(attempt): \(response)")
                #expect(response.value(forHeader: "Retry-After") != nil, "attempt \(attempt): \(response)")
            }
            let third = try await server.raw("GET", "/manifest.json")
            #expect(third.statusCode == 200)
            #expect(third.body == (try server.fileBytes("/manifest.json")))
        }
    }

    @Test("--fail without a count fails every time, and only that path")
    func failAlways() async throws {
        try await withAssetServer(arguments: ["--fail", "/manifest.json=500"]) { server in
            for _ in 0..<5 {
                #expect(try await server.raw("GET", "/manifest.json").statusCode == 500)
            }
            let manifest = try JSONDecoder().decode(LiveManifest.self, from: Data(try server.fileBytes("/manifest.json")))
            let entry = try #require(manifest.sessions.first)
            #expect(try await server.raw("GET", entry.path).statusCode == 200)
        }
    }

    @Test("--latency delays each response by at least the given milliseconds")
    func latencyDelaysResponses() async throws {
        try await withAssetServer(arguments: ["--latency", "400"]) { server in
            let clock = ContinuousClock()
            let client = try RawHTTPClient(port: server.port)
            for _ in 0..<2 {
                let start = clock.now
                #expect(try await client.request("GET", "/manifest.json").statusCode == 200)
                let elapsed = clock.now - start
                #expect(elapsed >= .milliseconds(400), "answered after \(elapsed)")
            }
        }
    }

    @Test("--corrupt serves other bytes with the same length and validators, so the SHA-256 check fails")
    func corruptKeepsValidators() async throws {
        let catalog = try TemporaryDirectory(prefix: "corrupt-catalog")
        let (entry, original, etag, lastModified) = try await withAssetServer(catalogURL: catalog.url) { server in
            let (entry, file) = try await server.firstSession()
            let response = try await server.raw("GET", entry.path)
            return (entry, file, response.value(forHeader: "ETag"), response.value(forHeader: "Last-Modified"))
        }
        try await withAssetServer(catalogURL: catalog.url, arguments: ["--corrupt", entry.path]) { server in
            let response = try await server.raw("GET", entry.path)
            #expect(response.statusCode == 200)
            #expect(response.body.count == original.count)
            #expect(response.body != original)
            #expect(response.value(forHeader: "ETag") == etag)
            #expect(response.value(forHeader: "Last-Modified") == lastModified)
            let received = catalog.appending("received.bin")
            try Data(response.body).write(to: received)
            #expect(try await sha256sum(received) != entry.sha256)
            #expect(try server.fileBytes(entry.path) == original, "the file on disk is untouched")
        }
    }

    @Test("--auth answers 401 with WWW-Authenticate under /protected/, then 200 with the credentials")
    func basicAuthProtectsFolder() async throws {
        try await withAssetServer(arguments: ["--auth", "demo:s3cret"]) { server in
            let bytes = patternBytes(count: 5000)
            try server.writeFile("/protected/bonus.mp4", bytes)
            let anonymous = try await server.raw("GET", "/protected/bonus.mp4")
            #expect(anonymous.statusCode == 401, "\(anonymous)")
            let challenge = try #require(anonymous.value(forHeader: "WWW-Authenticate"))
            #expect(challenge.lowercased().hasPrefix("basic"))
            #expect(challenge.contains("realm="))
            let wrong = Data("demo:wrong".utf8).base64EncodedString()
            #expect(try await server.raw("GET", "/protected/bonus.mp4", headers: ["Authorization": "Basic \(wrong)"]).statusCode == 401)
            let right = Data("demo:s3cret".utf8).base64EncodedString()
            let granted = try await server.raw("GET", "/protected/bonus.mp4", headers: ["Authorization": "Basic \(right)"])
            #expect(granted.statusCode == 200)
            #expect(granted.body == bytes)
            #expect(try await server.raw("GET", "/manifest.json").statusCode == 200, "unprotected paths need no credentials")
        }
    }
}
