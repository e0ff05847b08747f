/*
Abstract:
Finds a loopback TCP port that nothing listens on, for processes that cannot take port 0.
*/

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Free loopback TCP ports.
///
/// Prefer starting a server on port 0 and reading the port it prints: a port found here is free
/// when returned, but another process may take it before the server binds it.
public enum FreePort {
    /// A TCP port on 127.0.0.1 that was free a moment ago.
    /// - Returns: The port number.
    /// - Throws: `TestSupportError` when no socket can be bound.
    public static func allocate() throws -> Int {
        // Released when this returns: the port is free again, for the caller's server to bind.
        try RefusingPort().port
    }
}

/// A loopback port that refuses every connection until a server takes it over.
///
/// Its socket is bound but never listens: a connection gets a reset (`ECONNREFUSED`). The socket
/// shares its port with no other (it sets no `SO_REUSEPORT`), so no other test's server can take
/// the port meanwhile, which a port from ``FreePort`` cannot promise. To let the port answer, start
/// ``ScriptedHTTPServer/init(takingOver:tls:script:)`` on it: the server listens on this very socket,
/// so the port is never free in between.
public final class RefusingPort: Sendable {
    /// The port number.
    public let port: Int
    private let descriptor: Int32

    /// Binds a loopback port without listening on it.
    /// - Throws: `TestSupportError` when no socket can be bound.
    public init() throws {
        let socketDescriptor = try SocketAddress.loopbackSocket()
        var address = SocketAddress.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(socketDescriptor)
            throw TestSupportError("Could not bind a socket to 127.0.0.1:0: errno \(errno).")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = getsockname(socketDescriptor, $0, &length)
            }
        }
        descriptor = socketDescriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Makes the port's socket listen and returns a descriptor of it of its own, which outlives this
    /// value: from now on the port answers, and it stays the caller's after this value is gone.
    /// - Parameter backlog: The length of the queue of connections not yet accepted.
    /// - Returns: The listening socket's new descriptor, close-on-exec; the caller closes it.
    /// - Throws: `TestSupportError` when the socket cannot be duplicated or cannot listen.
    func takeOverListening(backlog: Int32) throws -> Int32 {
        let listening = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard listening >= 0 else {
            throw TestSupportError("Could not duplicate the socket of port \(port): errno \(errno).")
        }
        guard listen(listening, backlog) == 0 else {
            let failure = errno
            close(listening)
            throw TestSupportError("Could not listen on port \(port): errno \(failure).")
        }
        return listening
    }

    deinit { close(descriptor) }
}

/// Small helpers for IPv4 loopback sockets.
enum SocketAddress {
    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
        return address
    }

    /// Connects a socket to `127.0.0.1:port`.
    /// - Returns: Whether it connected; `errno` says why not.
    static func connectToLoopback(_ descriptor: Int32, port: Int) -> Bool {
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    static func loopbackSocket() throws -> Int32 {
        #if canImport(Glibc)
        // Close-on-exec: a child another test starts meanwhile must not inherit this connection and
        // keep it open after the test closes it.
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else {
            throw TestSupportError("Could not create a TCP socket: errno \(errno).")
        }
        return descriptor
    }
}
