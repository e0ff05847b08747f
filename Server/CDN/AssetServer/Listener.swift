/*
Abstract:
The listening socket: resolves the host, binds (port 0 picks a free port), and accepts without ever blocking on a client.
*/

import BackgroundAssetsIPC
import Foundation

/// A bound, listening TCP socket.
struct Listener: Sendable {
    let descriptor: Int32
    /// The port actually bound, which differs from the requested one when that was 0.
    let port: Int

    /// Binds and listens on `host`:`port`.
    /// - Throws: ``AssetServerError/cannotListen(host:port:reason:)``.
    init(host: String, port: Int) throws {
        func failure(_ reason: String) -> AssetServerError {
            .cannotListen(host: host, port: port, reason: reason)
        }
        guard (0...65535).contains(port) else { throw failure("the port must be from 0 to 65535") }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else { throw failure(String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(results) }

        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let descriptor = socket(first.pointee.ai_family, type, 0)
        guard descriptor >= 0 else { throw failure(errnoText()) }
        var one: Int32 = 1
        // SO_REUSEADDR lets a restarted server bind while old connections sit in TIME_WAIT.
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0,
              listen(descriptor, SOMAXCONN) == 0 else {
            let reason = errnoText()
            close(descriptor)
            throw failure(reason)
        }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        self.port = Self.port(of: address)
    }

    private static func port(of address: sockaddr_storage) -> Int {
        var copy = address
        return withUnsafePointer(to: &copy) { pointer in
            if Int32(address.ss_family) == AF_INET6 {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        }
    }

    /// Accepts one pending connection as a non-blocking socket with `TCP_NODELAY`, or returns `nil`.
    ///
    /// The listening socket is non-blocking and only accepted from after `poll(2)` reports it readable,
    /// so a client that connects and vanishes cannot wedge the accept loop.
    func accept() -> Int32? {
        let client = Foundation.accept(descriptor, nil, nil)
        guard client >= 0 else { return nil }
        // accept4(2) would set these in one call, but Glibc does not export it to Swift.
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        var one: Int32 = 1
        // Heads and small bodies go out at once instead of waiting for an acknowledgement (Nagle).
        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return client
    }
}
