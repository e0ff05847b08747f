/*
Abstract:
A loopback TCP relay in front of a real server that passes its answers on up to a byte the test chooses, then holds them until the test lets them go.
*/

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Stands between a client under test and a real server, and stops the server's answers at a byte
/// the test chooses.
///
/// A test that must act in the middle of a transfer (kill the service, take a picture of it) can
/// only make that likely with a throttle: a machine busy enough keeps the test from looking until
/// the transfer is over. Behind this relay the transfer is in the middle, however late the test
/// looks, until ``release()``. The server stays the real one, with its access log, validators and
/// ranges; only the relay's port differs, and the same URL works before and after the release.
///
/// Requests pass unchanged and unlimited. Answers pass until `limit` bytes of them, heads included
/// and counted over every connection, have gone to clients; then every connection waits, and after
/// ``release()`` everything passes.
public final class HoldingRelay: @unchecked Sendable {
    /// The port clients connect to.
    public let port: Int
    /// The bytes of answers passed on before the relay holds.
    public let limit: Int

    private let upstreamPort: Int
    private let listener: Int32
    // Every stored property below is read and written only under `condition`.
    private let condition = NSCondition()
    private var passed = 0
    private var released = false
    private var stopped = false
    private var openSockets: Set<Int32> = []

    /// Starts relaying a free loopback port to `upstreamPort`.
    /// - Parameters:
    ///   - upstreamPort: The loopback port of the real server.
    ///   - limit: How many bytes of the server's answers clients get before the relay holds.
    /// - Throws: `TestSupportError` when no port can listen.
    public init(to upstreamPort: Int, holdingAfter limit: Int) throws {
        let refusing = try RefusingPort()
        self.listener = try refusing.takeOverListening(backlog: 16)
        self.port = refusing.port
        self.upstreamPort = upstreamPort
        self.limit = limit
        let relay = self
        Thread.detachNewThread { relay.acceptLoop() }
    }

    /// The URL of a path through the relay.
    public func url(_ path: String) -> URL {
        // The path comes from the test itself, so a bad one is the test's own mistake.
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Whether clients have had all `limit` bytes and the relay now holds the rest.
    public var isHolding: Bool { condition.withLock { passed >= limit && !released } }

    /// How many connections are open through the relay: once a client has gone, its connection to
    /// the server ends too, held or not, so the server finishes (and logs) that answer then.
    public var openConnections: Int { condition.withLock { openSockets.count / 2 } }

    /// Lets everything through from now on, on connections held and new ones alike.
    public func release() {
        condition.withLock {
            released = true
            condition.broadcast()
        }
    }

    /// Stops accepting and ends every connection. Call it when the test is done: the relay's
    /// threads keep it alive until then.
    public func stop() {
        let wasStopped = condition.withLock {
            defer {
                stopped = true
                condition.broadcast()
            }
            return stopped
        }
        guard !wasStopped else { return }
        // The accept thread closes the listener once it sees `stopped`; a socket is closed only
        // after it leaves `openSockets` under the lock, so these numbers are all still the relay's.
        shutdown(listener, Int32(SHUT_RDWR))
        condition.withLock {
            for socket in openSockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if condition.withLock({ stopped }) { close(listener); return }
                continue
            }
            // A child another test launches must not inherit the connection and keep it open.
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            guard let upstream = connectUpstream() else { close(client); continue }
            let accepted = condition.withLock {
                guard !stopped else { return false }
                openSockets.formUnion([client, upstream])
                return true
            }
            guard accepted else { close(client); close(upstream); continue }
            let pair = ConnectionPair(client: client, upstream: upstream)
            let relay = self
            Thread.detachNewThread { relay.passRequests(pair) }
            Thread.detachNewThread { relay.passAnswers(pair) }
        }
    }

    /// Both sockets of one relayed connection; the second of its two threads to finish closes them.
    private final class ConnectionPair: @unchecked Sendable {
        let client: Int32
        let upstream: Int32
        /// Whether the client closed its side; read and written only under the relay's `condition`.
        var clientLeft = false
        private let lock = NSLock()
        private var running = 2

        init(client: Int32, upstream: Int32) {
            self.client = client
            self.upstream = upstream
        }

        /// Whether the caller is the last thread of the pair.
        func finish() -> Bool { lock.withLock { running -= 1; return running == 0 } }
    }

    private func connectUpstream() -> Int32? {
        guard let socket = try? SocketAddress.loopbackSocket() else { return nil }
        guard SocketAddress.connectToLoopback(socket, port: upstreamPort) else {
            close(socket)
            return nil
        }
        return socket
    }

    private func passRequests(_ pair: ConnectionPair) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(pair.client, $0.baseAddress, $0.count, 0) }
            guard count > 0, Self.sendAll(buffer[..<count], to: pair.upstream) else { break }
        }
        // A client that closes its side is gone (an HTTP client does not half-close): a held answer
        // for it must not wait for the release and reach the server's log long after.
        condition.withLock {
            pair.clientLeft = true
            condition.broadcast()
        }
        shutdown(pair.upstream, Int32(SHUT_RDWR))
        end(pair)
    }

    private func passAnswers(_ pair: ConnectionPair) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        reading: while true {
            let count = buffer.withUnsafeMutableBytes { recv(pair.upstream, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            var offset = 0
            while offset < count {
                let allowed = waitForAllowance(upTo: count - offset, for: pair)
                guard allowed > 0, Self.sendAll(buffer[offset..<(offset + allowed)], to: pair.client) else { break reading }
                offset += allowed
            }
        }
        // The answer is over, or its client gone: both sides of the connection end.
        shutdown(pair.client, Int32(SHUT_RDWR))
        shutdown(pair.upstream, Int32(SHUT_RDWR))
        end(pair)
    }

    /// Blocks until some of `wanted` bytes may pass to the pair's client, and counts them as
    /// passed; 0 once the relay stopped or the client left.
    private func waitForAllowance(upTo wanted: Int, for pair: ConnectionPair) -> Int {
        condition.withLock {
            while !stopped, !pair.clientLeft, !released, passed >= limit { condition.wait() }
            guard !stopped, !pair.clientLeft else { return 0 }
            let allowed = released ? wanted : min(wanted, limit - passed)
            passed += allowed
            return allowed
        }
    }

    private func end(_ pair: ConnectionPair) {
        guard pair.finish() else { return }
        condition.withLock {
            openSockets.remove(pair.client)
            openSockets.remove(pair.upstream)
        }
        close(pair.client)
        close(pair.upstream)
    }

    private static func sendAll(_ bytes: ArraySlice<UInt8>, to socket: Int32) -> Bool {
        var sent = bytes.startIndex
        while sent < bytes.endIndex {
            let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}
