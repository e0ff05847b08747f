/*
Abstract:
Live tests of asset-server --tls: the local CA, https with ranges, plain http refused, stalled handshakes.
*/

import Foundation
import TestSupport
import Testing
import TLS

@Suite("asset-server over TLS", .timeLimit(.minutes(3)))
struct LiveTLSTests {
    /// Connects to the server on loopback and performs the client handshake, trusting `ca`.
    static func connect(port: Int, ca: URL, host: String = "localhost") throws -> (Int32, TLSStream) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(descriptor); throw POSIXError(.ECONNREFUSED) }
        let stream = try TLSStream.connect(descriptor: descriptor, context: try TLSClientContext(extraCAFiles: [ca]),
                                           host: host, port: port, timeoutMilliseconds: 5000)
        return (descriptor, stream)
    }

    /// Sends one request and reads until the server closes.
    static func fetch(_ stream: TLSStream, _ request: String) throws -> String {
        try Array(request.utf8).withUnsafeBytes { try stream.write($0, timeoutMilliseconds: 5000) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let read = try buffer.withUnsafeMutableBytes { try stream.read(into: $0, timeoutMilliseconds: 5000) }
            guard case let .bytes(count) = read else { break }
            response += buffer.prefix(count)
        }
        return String(decoding: response, as: UTF8.self)
    }

    @Test("--tls creates a local CA, prints its path, and serves ranges over https; plain http gets 400")
    func servesHTTPS() async throws {
        let folder = try TemporaryDirectory()
        let tlsFolder = folder.url.appending(path: "tls")
        let log = folder.url.appending(path: "access.log")
        try await withAssetServer(arguments: ["--tls", "--tls-dir", tlsFolder.path, "--access-log", log.path]) { server in
            #expect(server.baseURL.scheme == "https")
            let caLine = try await server.process.waitForLine { $0.hasPrefix("asset-server CA certificate: ") }
            let ca = URL(fileURLWithPath: String(caLine.dropFirst("asset-server CA certificate: ".count)))
            #expect(ca.standardizedFileURL.path == tlsFolder.appending(path: "ca.pem").standardizedFileURL.path)

            let (descriptor, stream) = try Self.connect(port: server.port, ca: ca)
            defer { close(descriptor) }
            let response = try Self.fetch(stream, "GET /manifest.json HTTP/1.1\r\nHost: localhost\r\nRange: bytes=0-9\r\nConnection: close\r\n\r\n")
            #expect(response.hasPrefix("HTTP/1.1 206"))
            #expect(response.hasSuffix("\r\n\r\n{\n  \"sessi") || response.contains("Content-Range: bytes 0-9/"))

            let plain = try await server.raw("GET", "/manifest.json")
            #expect(plain.statusCode == 400)

            let entries = try AccessLogEntry.entries(in: log)
            #expect(entries.contains { $0.range == "bytes=0-9" && $0.status == 206 && $0.bytes == 10 })
        }
    }

    @Test("One TLS connection carries requests one after another and pipelined, in order")
    func keepAliveAndPipelining() async throws {
        let folder = try TemporaryDirectory()
        let tlsFolder = folder.url.appending(path: "tls")
        try await withAssetServer(arguments: ["--tls", "--tls-dir", tlsFolder.path]) { server in
            _ = try await server.process.waitForLine { $0.hasPrefix("asset-server CA certificate: ") }
            let (descriptor, stream) = try Self.connect(port: server.port, ca: tlsFolder.appending(path: "ca.pem"))
            defer { close(descriptor) }
            func request(_ range: String, close: Bool = false) -> String {
                "GET /manifest.json HTTP/1.1\r\nHost: localhost\r\nRange: bytes=\(range)\r\n"
                    + (close ? "Connection: close\r\n" : "") + "\r\n"
            }
            // The first answer is read before the second request goes out: the server waits for it.
            try Array(request("0-0").utf8).withUnsafeBytes { try stream.write($0, timeoutMilliseconds: 5000) }
            var first = [UInt8](repeating: 0, count: 65_536)
            let read = try first.withUnsafeMutableBytes { try stream.read(into: $0, timeoutMilliseconds: 5000) }
            guard case let .bytes(count) = read else { Issue.record("no first answer"); return }
            #expect(String(decoding: first.prefix(count), as: UTF8.self).hasPrefix("HTTP/1.1 206"))
            // Two more without waiting, each in a record of its own: both arrive before the first is answered.
            try Array(request("1-1").utf8).withUnsafeBytes { try stream.write($0, timeoutMilliseconds: 5000) }
            let rest = try Self.fetch(stream, request("2-2", close: true))
            #expect(rest.components(separatedBy: "HTTP/1.1 206").count == 3, "both pipelined requests answered")
            #expect(rest.contains("Content-Range: bytes 1-1/"))
            #expect(rest.range(of: "bytes 1-1/")!.lowerBound < rest.range(of: "bytes 2-2/")!.lowerBound)
        }
    }

    @Test("A client that stalls in the handshake does not hold up others")
    func stalledHandshake() async throws {
        let folder = try TemporaryDirectory()
        let tlsFolder = folder.url.appending(path: "tls")
        try await withAssetServer(arguments: ["--tls", "--tls-dir", tlsFolder.path]) { server in
            let silent = try RawHTTPClient(port: server.port)
            defer { silent.close() }
            let (descriptor, stream) = try Self.connect(port: server.port, ca: tlsFolder.appending(path: "ca.pem"), host: "127.0.0.1")
            defer { close(descriptor) }
            let response = try Self.fetch(stream, "HEAD /manifest.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(response.hasPrefix("HTTP/1.1 200"))
        }
    }
}
