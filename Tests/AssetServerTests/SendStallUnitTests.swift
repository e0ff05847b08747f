/*
Abstract:
In-process test that a client which stops reading a body is dropped after the send stall timeout, while others are served.
*/

@testable import AssetServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("A body nobody reads")
struct SendStallUnitTests {
    @Test("A client that stops reading is dropped once the stall timeout passes without progress")
    func stalledReaderIsDropped() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "asset-server-stall-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let size: Int64 = 16 << 20
        let catalog = try Catalog.prepare(at: folder, sessionCount: 1, sessionSize: size)
        let timeouts = AssetServer.Timeouts(sendStall: .seconds(1))
        let server = AssetServer(configuration: .init(port: 0, catalogDirectory: folder, timeouts: timeouts))
        let port = try server.start()
        defer { server.shutdown() }
        let session = try #require(catalog.manifest.sessions.first)
        let path = session.url.relativeString

        // A small receive buffer, and no reading: the server's sends stop making progress.
        let client = try StallingClient(port: port)
        try client.send("GET /\(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        // The behaviour under test is what happens after this much silence from the client.
        try await Task.sleep(for: .seconds(3))

        // Another client is served meanwhile.
        let other = try #require(URL(string: "http://127.0.0.1:\(port)/manifest.json"))
        #expect((try await URLSession.shared.data(from: other).1 as? HTTPURLResponse)?.statusCode == 200)

        // Reading now finds the bytes that were in flight, then the end: the server gave up.
        let received = try client.drain(deadline: .now + .seconds(20))
        #expect(received.endedByServer, "the server still sends after \(received.bytes) bytes")
        #expect(received.bytes < Int64(session.fileSize), "the whole body arrived; the server never stopped")
    }
}

/// A TCP client with a small receive buffer that reads only when told to.
private final class StallingClient {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var small: Int32 = 4096
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(descriptor, bytes, bytes.count, 0) == bytes.count else { throw POSIXError(.EPIPE) }
    }

    /// Reads until the server closes the connection or the deadline passes.
    func drain(deadline: ContinuousClock.Instant) throws -> (bytes: Int64, endedByServer: Bool) {
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var total: Int64 = 0
        while ContinuousClock.now < deadline {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 {
                total += Int64(count)
            } else if count == 0 || errno == ECONNRESET {
                return (total, true)
            } else if errno != EAGAIN, errno != EINTR {
                return (total, true)
            }
        }
        return (total, false)
    }
}
