/*
Abstract:
Non-blocking use of a socket, for a service that serves every client from one event loop.
*/

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UnixSocket {
    /// What a non-blocking read found.
    public enum ReadResult: Sendable, Equatable {
        /// Some bytes.
        case bytes([UInt8])
        /// Nothing yet; poll for `POLLIN` and read again.
        case wouldBlock
        /// The peer closed the connection (or it was closed here).
        case end
    }

    /// Makes reads and writes return at once instead of waiting.
    /// - Throws: ``SocketError/socketFailed(operation:path:errno:)``.
    public func setNonBlocking() throws {
        guard let descriptor else { throw SocketError.socketFailed(operation: "fcntl", path: path, errno: EBADF) }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw SocketError.socketFailed(operation: "fcntl", path: path, errno: errno)
        }
    }

    /// Writes as much of `bytes` as the socket takes now.
    /// - Parameter bytes: The bytes to write.
    /// - Returns: How many were written; 0 when the socket's buffer is full.
    /// - Throws: ``SocketError/socketFailed(operation:path:errno:)`` (`EPIPE` when the peer has gone).
    public func sendAvailable(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        guard let descriptor else { throw SocketError.socketFailed(operation: "send", path: path, errno: EBADF) }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        while true {
            let result = systemSend(descriptor, base, bytes.count, noSignalFlag)
            if result >= 0 { return result }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return 0
            default: throw SocketError.socketFailed(operation: "send", path: path, errno: errno)
            }
        }
    }

    /// Reads whatever is available now, without waiting.
    /// - Parameter maximumLength: The most bytes to return.
    /// - Returns: The bytes, ``ReadResult/wouldBlock`` or ``ReadResult/end``.
    /// - Throws: ``SocketError/socketFailed(operation:path:errno:)``.
    public func receiveAvailable(maximumLength: Int = 64 * 1024) throws -> ReadResult {
        guard let descriptor else { return .end }
        var buffer = [UInt8](repeating: 0, count: maximumLength)
        while true {
            let result = buffer.withUnsafeMutableBytes { systemRecv(descriptor, $0.baseAddress, $0.count, 0) }
            if result > 0 { return .bytes(Array(buffer.prefix(result))) }
            if result == 0 { return .end }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default:
                if self.descriptor == nil { return .end }
                throw SocketError.socketFailed(operation: "recv", path: path, errno: errno)
            }
        }
    }
}

extension UnixSocketListener {
    /// The listening descriptor, for polling; `nil` once closed.
    public var descriptor: Int32? { socket.descriptor }

    /// Makes ``acceptPending()`` return at once when no client is waiting.
    /// - Throws: ``SocketError/socketFailed(operation:path:errno:)``.
    public func setNonBlocking() throws {
        try socket.setNonBlocking()
    }

    /// Takes the next waiting connection, if there is one, on a non-blocking listener.
    /// - Returns: The connection and its peer, or `nil` when nobody is waiting.
    /// - Throws: ``SocketError/socketFailed(operation:path:errno:)``.
    public func acceptPending() throws -> (connection: UnixSocket, peer: PeerCredentials)? {
        do {
            return try accept()
        } catch SocketError.socketFailed(_, _, let code) where code == EAGAIN || code == EWOULDBLOCK {
            return nil
        }
    }
}
