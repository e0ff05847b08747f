/*
Abstract:
The live timeline's HTTP server: listens on 127.0.0.1 only, answers on a thread of its own, and stops when told.
*/

import Foundation
import HTTPCore
import Synchronization

/// A small HTTP/1.1 server on the loopback interface that answers each request with ``LiveTimelineRoutes``
/// and closes the connection.
///
/// One thread waits in `poll(2)` on the listening socket and every open connection, so a browser's
/// idle preconnection cannot hold up the page's next poll, and a client that sends nothing is closed
/// after ``idleTimeout``. Its only clients are a browser on this machine and tests, so answers are
/// written on the same thread, each bounded by a send timeout.
final class LiveTimelineServer: Sendable {
    /// How long a connection may take to send its request head.
    static let idleTimeout: TimeInterval = 10
    /// How long writing one answer may take.
    static let sendTimeout = 5

    /// The port bound: the one asked for, or a free one when that was 0.
    let port: Int
    private let listener: Int32
    private let routes: LiveTimelineRoutes
    private let stopRequested = Atomic(false)
    private let ended = Mutex<CheckedContinuation<Void, Never>?>(nil)

    /// Binds 127.0.0.1:`port`.
    /// - Parameters:
    ///   - port: The port, or 0 for a free one.
    ///   - routes: What to answer.
    /// - Throws: ``DebugToolError`` naming the port and the reason when it cannot listen.
    init(port: Int, routes: LiveTimelineRoutes) throws(DebugToolError) {
        func failure(_ reason: String) -> DebugToolError {
            DebugToolError("The live timeline cannot listen on 127.0.0.1:\(port): \(reason). "
                + "Choose another port, or 0 for a free one.")
        }
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let descriptor = socket(AF_INET, type, 0)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        var one: Int32 = 1
        // A restarted view binds its port again while the last one's connections sit in TIME_WAIT.
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, SOMAXCONN) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw failure(reason)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(descriptor, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        listener = descriptor
        self.routes = routes
    }

    /// The page's address.
    var url: String { "http://127.0.0.1:\(port)/" }

    /// Serves until the task is cancelled or ``stop()`` is called, then closes every socket; call it once.
    func run() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                ended.withLock { $0 = continuation }
                Thread.detachNewThread { [self] in
                    serve()
                    ended.withLock { $0.take() }?.resume()
                }
            }
        } onCancel: {
            stop()
        }
    }

    /// Asks the server to stop; ``run()`` returns within a tenth of a second.
    func stop() {
        stopRequested.store(true, ordering: .releasing)
    }

    /// A connection still sending its request head.
    private struct Client {
        let descriptor: Int32
        let deadline: Date
        var received: [UInt8] = []
    }

    private func serve() {
        var clients: [Client] = []
        defer {
            for client in clients { close(client.descriptor) }
            close(listener)
        }
        while !stopRequested.load(ordering: .acquiring) {
            var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            descriptors += clients.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            // A tenth of a second bounds how long stop() waits.
            guard Glibc.poll(&descriptors, nfds_t(descriptors.count), 100) >= 0 || errno == EINTR else { return }
            var remaining: [Client] = []
            for (index, var client) in clients.enumerated() {
                let ready = descriptors[index + 1].revents != 0
                if ready, let answer = read(into: &client) {
                    if let response = answer { respond(response, on: client.descriptor) }
                    close(client.descriptor)
                } else if Date.now > client.deadline {
                    close(client.descriptor)
                } else {
                    remaining.append(client)
                }
            }
            clients = remaining
            if descriptors[0].revents & Int16(POLLIN) != 0 {
                while let descriptor = accept() {
                    let deadline = Date.now.addingTimeInterval(Self.idleTimeout)
                    clients.append(Client(descriptor: descriptor, deadline: deadline))
                }
            }
        }
    }

    /// Reads what a ready connection sent.
    /// - Returns: `nil` while its head is incomplete; `.some(nil)` when it closed or failed, to be closed
    ///   without an answer; the answer once its head is complete, or has grown too long.
    private func read(into client: inout Client) -> LiveTimelineResponse?? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(client.descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
        guard count > 0 else { return .some(nil) }
        client.received += buffer[..<count]
        if let length = HTTPHeadEnd.length(in: client.received) {
            return .some(routes.response(toHead: Array(client.received[..<length])))
        }
        if client.received.count > LiveTimelineRequest.maximumHeadLength { return .some(LiveTimelineRoutes.headTooLarge) }
        return nil
    }

    /// Writes an answer and lets the client read it before the connection closes.
    private func respond(_ response: LiveTimelineResponse, on descriptor: Int32) {
        // Blocking from here, bounded by the send timeout, so a large picture goes out in one loop.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var timeout = timeval(tv_sec: Self.sendTimeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes = response.serialized[...]
        while !bytes.isEmpty {
            // MSG_NOSIGNAL: a client that left must not end the tool with SIGPIPE.
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return }
            bytes = bytes.dropFirst(sent)
        }
        // Half-close, then drop what the client sent past its head: closing with unread bytes would
        // reset the connection under the answer before the client read it.
        shutdown(descriptor, Int32(SHUT_WR))
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var scratch = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<16 where scratch.withUnsafeMutableBytes({ recv(descriptor, $0.baseAddress, $0.count, 0) }) > 0 {}
    }

    private func accept() -> Int32? {
        let descriptor = Glibc.accept(listener, nil, nil)
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return descriptor
    }
}
