/*
Abstract:
Tests that transfers to one server reuse a kept-alive connection, and never one the server closed or asked to close.
*/

@testable import BackgroundAssetsDaemon
import DevicePlatform
import Foundation
import HTTPCore
import ServerRuntime
import Synchronization
import Testing
import TestSupport

@Suite("Reusing connections", .timeLimit(.minutes(3)))
struct ConnectionReuseTests {
    static func request(_ url: URL, in folder: URL, name: String, pool: ConnectionPool) -> TransferRequest {
        TransferRequest(url: url, partFile: folder.appending(path: name), stallTimeout: .seconds(5), connections: pool)
    }

    @Test("A second download from the asset server goes over the first one's connection, and both arrive whole")
    func reusesKeptAliveConnection() async throws {
        try await withAssetServer(sessions: 2, sessionSize: 65_536) { server in
            let files = try FileManager.default.contentsOfDirectory(atPath: server.catalogURL.appending(path: "sessions").path)
                .sorted().map { "/sessions/" + $0 }
            #expect(files.count == 2)
            let folder = try TemporaryDirectory()
            let pool = ConnectionPool()
            let origin = ConnectionPool.origin(of: server.url(files[0]))

            let first = Self.request(server.url(files[0]), in: folder.url, name: "a.part", pool: pool)
            _ = try await HTTPTransferTests.transfer(first).result.get()
            let kept = try #require(pool.take(origin: origin), "the first response left its connection in the pool")
            pool.put(kept, origin: origin)

            let second = Self.request(server.url(files[1]), in: folder.url, name: "b.part", pool: pool)
            _ = try await HTTPTransferTests.transfer(second).result.get()
            #expect(pool.take(origin: origin) === kept, "the second transfer used the kept connection and gave it back")
            for (name, path) in zip(["a.part", "b.part"], files) {
                let received = try Data(contentsOf: folder.url.appending(path: name))
                #expect(received == (try Data(contentsOf: server.catalogURL.appending(path: String(path.dropFirst())))))
            }
        }
    }

    @Test("The body's end is reported once its connection is back in the pool, before the file's sync is")
    func bodyEndComesWithTheConnectionBack() async throws {
        try await withAssetServer(sessions: 1, sessionSize: 65_536) { server in
            let files = try FileManager.default.contentsOfDirectory(atPath: server.catalogURL.appending(path: "sessions").path)
            let size = Int64(try Data(contentsOf: server.catalogURL.appending(path: "sessions/" + files[0])).count)
            let folder = try TemporaryDirectory()
            let pool = ConnectionPool()
            let request = Self.request(server.url("/sessions/" + files[0]), in: folder.url, name: "a.part", pool: pool)
            let idleAtBodyEnd = Mutex<Int?>(nil)
            let events = Mutex<[TransferEvent]>([])
            let result = await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    let transfer = HTTPTransfer(request: request, control: TransferControl()) { event in
                        // What the queue does on hearing it: the next download may take the connection now.
                        if event == .bodyEnded { idleAtBodyEnd.withLock { $0 = pool.idleCount } }
                        events.withLock { $0.append(event) }
                    }
                    continuation.resume(returning: Result { () throws(TransferError) in try transfer.run() })
                }
            }
            #expect(try result.get().length == size)
            let reported = events.withLock { $0 }
            #expect(idleAtBodyEnd.withLock { $0 } == 1, "the connection was not back in the pool: \(reported)")
            let bodyEnd = try #require(reported.firstIndex(of: .bodyEnded))
            let sync = try #require(reported.lastIndex { event in
                if case .checkpoint(size, _) = event { true } else { false }
            })
            #expect(bodyEnd < sync, "the end's sync was reported before the body's end: \(reported)")
            #expect(reported.count { $0 == .bodyEnded } == 1)
        }
    }

    @Test("A connection put back after the taker read the clock is taken, not a crash")
    func putBackAfterTheClockWasRead() async throws {
        try await withAssetServer(sessions: 1, sessionSize: 4_096) { server in
            let files = try FileManager.default.contentsOfDirectory(atPath: server.catalogURL.appending(path: "sessions").path)
            let url = server.url("/sessions/" + files[0])
            let folder = try TemporaryDirectory()
            let pool = ConnectionPool()
            let origin = ConnectionPool.origin(of: url)
            // A transfer on another thread reads the clock, then a second one puts its connection back.
            let clockReadEarlier = MonotonicClock.now()
            _ = try await HTTPTransferTests.transfer(Self.request(url, in: folder.url, name: "a.part", pool: pool)).result.get()
            #expect(pool.take(origin: origin, now: clockReadEarlier) != nil, "a connection put back just now is fresh")
        }
    }

    @Test("Dropping the idle connections releases each one, which closes its socket, and the pool starts empty")
    func closeIdleConnections() throws {
        let server = try ScriptedHTTPServer { _, _ in .response("200 OK") }
        defer { server.stop() }
        let pool = ConnectionPool()
        weak var dropped: HTTPConnection?
        do {
            let first = try HTTPConnection(host: "127.0.0.1", port: server.port, timeoutMilliseconds: 5_000)
            let second = try HTTPConnection(host: "127.0.0.1", port: server.port, timeoutMilliseconds: 5_000)
            dropped = first
            pool.put(first, origin: "http://127.0.0.1:1")
            pool.put(second, origin: "http://127.0.0.1:2")
        }
        #expect(pool.idleCount == 2)
        #expect(pool.closeIdle() == 2)
        #expect(pool.idleCount == 0)
        // The pool held the last reference: the connection is gone, and its deinit closed its socket.
        #expect(dropped == nil)
        #expect(pool.closeIdle() == 0)
    }

    @Test("A response that asks to close leaves nothing in the pool")
    func closeIsHonoured() async throws {
        let server = try ScriptedHTTPServer(script: HTTPTransferTests.fullResponse)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let pool = ConnectionPool()
        _ = try await HTTPTransferTests.transfer(Self.request(server.url("/a.mp4"), in: folder.url, name: "a.part", pool: pool)).result.get()
        #expect(pool.idleCount == 0)
    }

    @Test("A kept connection the server closed meanwhile is dropped, and the next transfer connects again")
    func closedWhileIdle() async throws {
        // A clean response without "Connection: close", after which the server hangs up anyway.
        let server = try ScriptedHTTPServer { _, _ in
            let head = "HTTP/1.1 200 OK\r\nContent-Length: \(HTTPTransferTests.file.count)\r\nETag: \(HTTPTransferTests.etag)\r\n\r\n"
            return ScriptedHTTPServer.Reply(Array(head.utf8) + HTTPTransferTests.file)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let pool = ConnectionPool()
        _ = try await HTTPTransferTests.transfer(Self.request(server.url("/a.mp4"), in: folder.url, name: "a.part", pool: pool)).result.get()
        #expect(pool.idleCount == 1, "kept: it looked reusable when the response ended")
        let second = Self.request(server.url("/b.mp4"), in: folder.url, name: "b.part", pool: pool)
        let result = try await HTTPTransferTests.transfer(second).result.get()
        #expect(result.length == Int64(HTTPTransferTests.file.count))
        #expect(try Data(contentsOf: second.partFile) == Data(HTTPTransferTests.file))
    }

    @Test("The pool keeps as many idle connections per origin as it was made for, the newest")
    func keepsItsNumberPerOrigin() throws {
        let server = try ScriptedHTTPServer(script: HTTPTransferTests.fullResponse)
        defer { server.stop() }
        let pool = ConnectionPool(maximumIdlePerOrigin: 3)
        let origin = ConnectionPool.origin(of: server.url("/a.mp4"))
        let connections = try (0..<5).map { _ in try HTTPConnection(host: "127.0.0.1", port: server.port, timeoutMilliseconds: 5000) }
        for connection in connections { pool.put(connection, origin: origin) }
        #expect(pool.idleCount == 3)
        #expect(pool.take(origin: origin) === connections[4], "the most recently used goes first")
        #expect(ConnectionPool(maximumIdlePerOrigin: 0).maximumIdlePerOrigin == 1, "a pool keeps at least one")
    }
}
