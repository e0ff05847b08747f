/*
Abstract:
Live robustness: size limits, malformed requests, smuggling, keep-alive and many connections.
*/

import Foundation
import Testing
import TestSupport

@Suite("Robustness", .serialized, .timeLimit(.minutes(3)))
struct LiveRobustnessTests {
    @Test("An oversized request line is answered 414")
    func oversizedRequestLine() async throws {
        try await withAssetServer { server in
            let client = try RawHTTPClient(port: server.port)
            try await client.send("GET /\(String(repeating: "a", count: 20_000)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.statusCode == 414, "\(response)")
            #expect(try await server.raw("GET", "/manifest.json").statusCode == 200)
        }
    }

    @Test("Oversized header fields are answered 431", arguments: [(40, 1_000), (300, 10)])
    func oversizedHeaders(count: Int, valueLength: Int) async throws {
        try await withAssetServer { server in
            let client = try RawHTTPClient(port: server.port)
            var request = "GET /manifest.json HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            for index in 0..<count {
                request += "X-Filler-\(index): \(String(repeating: "v", count: valueLength))\r\n"
            }
            try await client.send(request + "\r\n")
            let response = try await client.readResponse()
            #expect(response.statusCode == 431, "\(response)")
            #expect(try await server.raw("GET", "/manifest.json").statusCode == 200)
        }
    }

    @Test(
        "A malformed request is answered 400 and the server keeps serving",
        arguments: [
            "GARBAGE\r\n\r\n",
            "GET /manifest.json HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n",
            "GET /manifest.json HTTP/1.1\r\nHost : x\r\n\r\n",
            "GET /manifest.json HTTP/1.1\r\n\r\n",
            "GET /manifest.json HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            "GET  /manifest.json HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /manifest.json\r\nHost: x\r\n\r\n",
            "GET manifest.json HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /manifest.json HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
            "GET /manifest.json HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
            "GET /man\u{01}ifest.json HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /manifest.json HTTP/1.1\r\nBad Name: x\r\nHost: x\r\n\r\n",
            "GET /manifest.json HTTP/x.y\r\nHost: x\r\n\r\n",
        ]
    )
    func malformedRequest(request: RawText) async throws {
        try await withAssetServer { server in
            let client = try RawHTTPClient(port: server.port)
            try await client.send(request.text)
            let response = try await client.readResponse()
            #expect(response.statusCode == 400, "\(request.testDescription) → \(response)")
            #expect(try await server.raw("GET", "/manifest.json").statusCode == 200)
            #expect(server.process.isRunning)
        }
    }

    @Test("A request for an unsupported major HTTP version is answered 505")
    func unsupportedVersion() async throws {
        try await withAssetServer { server in
            let client = try RawHTTPClient(port: server.port)
            try await client.send("GET /manifest.json HTTP/2.0\r\nHost: x\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.statusCode == 505, "\(response)")
        }
    }

    @Test("One keep-alive connection serves many requests, also when they are pipelined")
    func keepAliveReuse() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let client = try RawHTTPClient(port: server.port)
            for index in 0..<10 {
                let response = try await client.request("GET", entry.path, headers: ["Range": "bytes=\(index)-\(index + 9)"])
                #expect(response.statusCode == 206)
                #expect(response.body == Array(file[index...(index + 9)]))
            }
            let pipelined = (0..<3).map { "GET /manifest.json HTTP/1.1\r\nHost: x\r\nX-Request: \($0)\r\n\r\n" }.joined()
            try await client.send(pipelined + "HEAD \(entry.path) HTTP/1.1\r\nHost: x\r\n\r\n")
            for _ in 0..<3 {
                #expect(try await client.readResponse().statusCode == 200)
            }
            let head = try await client.readResponse(method: "HEAD")
            #expect(head.value(forHeader: "Content-Length") == String(file.count))
            #expect(try await client.request("GET", "/manifest.json").statusCode == 200)
        }
    }

    @Test("A request body on GET is read and discarded, so the next pipelined request is answered in turn")
    func requestBodyIsDiscarded() async throws {
        try await withAssetServer { server in
            let client = try RawHTTPClient(port: server.port)
            try await client.send(
                "GET /manifest.json HTTP/1.1\r\nHost: x\r\nContent-Length: 14\r\n\r\nGET /nope HTTP"
                    + "GET /missing.mp4 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().statusCode == 200)
            let second = try await client.readResponse()
            #expect(second.statusCode == 404, "the body was taken for a request: \(second)")
        }
    }

    @Test("A request with Transfer-Encoding cannot smuggle a second request: the connection closes after one answer")
    func transferEncodingCannotSmuggle() async throws {
        try await withAssetServer { server in
            let client = try RawHTTPClient(port: server.port)
            try await client.send(
                "GET /manifest.json HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "0\r\n\r\nGET /smuggled.mp4 HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = try await client.readResponse()
            #expect(first.statusCode != 404, "\(first)")
            // RFC 9112 §6.1: after a request with both fields the server MUST close the connection.
            let rest = try await client.readUntilClosed()
            #expect(!String(decoding: rest, as: UTF8.self).contains("HTTP/1.1"), "a second answer followed")
        }
    }

    @Test("Connection: close and HTTP/1.0 requests end the connection after the response")
    func connectionCloseIsHonoured() async throws {
        try await withAssetServer { server in
            let closing = try RawHTTPClient(port: server.port)
            #expect(try await closing.request("GET", "/manifest.json", headers: ["Connection": "close"]).statusCode == 200)
            #expect(await closing.waitForClose())
            let legacy = try RawHTTPClient(port: server.port)
            try await legacy.send("GET /manifest.json HTTP/1.0\r\n\r\n")
            #expect(try await legacy.readResponse().statusCode == 200)
            #expect(await legacy.waitForClose())
        }
    }

    @Test("Two hundred connections open at once are all served")
    func manyConcurrentConnections() async throws {
        try await withAssetServer { server in
            let (entry, file) = try await server.firstSession()
            let clients = try (0..<200).map { _ in try RawHTTPClient(port: server.port, timeout: .seconds(20)) }
            for (index, client) in clients.enumerated() {
                try await client.send("GET \(entry.path) HTTP/1.1\r\nHost: x\r\nRange: bytes=\(index)-\(index + 99)\r\n\r\n")
            }
            var served = 0
            for (index, client) in clients.enumerated() {
                let response = try await client.readResponse()
                if response.statusCode == 206, response.body == Array(file[index...(index + 99)]) {
                    served += 1
                }
            }
            #expect(served == 200)
            // Every connection is still alive and reusable.
            for client in clients.prefix(20) {
                #expect(try await client.request("GET", "/manifest.json").statusCode == 200)
            }
        }
    }

    @Test("Closed connections release their file descriptors")
    func connectionsReleaseDescriptors() async throws {
        try await withAssetServer { server in
            let (entry, _) = try await server.firstSession()
            _ = try await server.raw("GET", entry.path)  // Let the server open whatever it keeps open for good.
            let baseline = try #require(server.process.openFileDescriptorCount())
            var clients: [RawHTTPClient] = []
            for _ in 0..<50 {
                let client = try RawHTTPClient(port: server.port)
                #expect(try await client.request("GET", entry.path).statusCode == 200)
                clients.append(client)
            }
            let busy = try #require(server.process.openFileDescriptorCount())
            // The baseline may still count a connection the server is closing, hence the slack.
            #expect(busy >= baseline + 45, "50 open connections hold only \(busy - baseline) more descriptors")
            clients.forEach { $0.close() }
            try await poll(until: { (server.process.openFileDescriptorCount() ?? .max) <= baseline + 2 },
                           "descriptors to drop back to \(baseline)")
        }
    }

    @Test("A client that disconnects mid-download does not harm the server")
    func clientDisconnectsMidBody() async throws {
        try await withAssetServer { server in
            try server.writeFile("/sessions/large.bin", [UInt8](repeating: 0xAB, count: 16 << 20))
            for _ in 0..<5 {
                let client = try RawHTTPClient(port: server.port)
                try await client.send("GET /sessions/large.bin HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try await client.readResponse(method: "HEAD")  // Read the head only, then hang up.
                client.close()
            }
            let response = try await server.raw("GET", "/sessions/large.bin", headers: ["Range": "bytes=0-9"])
            #expect(response.statusCode == 206)
            #expect(server.process.isRunning)
        }
    }
}
