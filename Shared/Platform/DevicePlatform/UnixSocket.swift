/*
Abstract:
A connected Unix-domain stream socket: blocking reads and writes of bytes and frames.
*/

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A connected Unix-domain stream socket that owns its file descriptor.
///
/// Calls block the calling thread, so use one from a dedicated thread or wrap it in a task that may
/// block; one reader and one writer may use it at the same time. ``close()`` is idempotent and
/// wakes a thread blocked in ``receive(maximumLength:)`` or in a listener's `accept`.
public final class UnixSocket: Sendable {
    /// The file descriptor, owned until deinit.
    private let fileDescriptor: Int32
    /// Whether ``close()`` was called; the lock serialises it against readers of ``descriptor``.
    private let isClosed = Mutex(false)
    /// The socket's path, kept for error messages.
    public let path: String

    /// Wraps a connected descriptor; the socket now owns it.
    /// - Parameters:
    ///   - descriptor: A connected stream socket.
    ///   - path: The path it is bound or connected to, for error messages.
    public init(descriptor: Int32, path: String) {
        fileDescriptor = descriptor
        self.path = path
    }

    // The descriptor is released only here, when no call can still be using it: closing it
    // earlier would let the kernel hand its number to another file while a send is in flight.
    deinit { _ = systemClose(fileDescriptor) }

    /// Connects to a listening socket.
    /// - Parameter path: The socket's path, for example ``DevicePaths/serviceSocket``.
    /// - Returns: The connected socket.
    /// - Throws: ``SocketError/socketFailed(operation:path:errno:)`` (`ENOENT` or `ECONNREFUSED` when no
    ///   service listens), or ``SocketError/socketPathTooLong(path:limit:)``.
    public static func connect(to path: String) throws -> UnixSocket {
        let descriptor = try makeSocket(path: path)
        let result = try withSocketAddress(path) { address, length in
            systemConnect(descriptor, address, length)
        }
        guard result == 0 else {
            let code = errno
            _ = systemClose(descriptor)
            throw SocketError.socketFailed(operation: "connect", path: path, errno: code)
        }
        return UnixSocket(descriptor: descriptor, path: path)
    }

    /// The descriptor, or `nil` once the socket is closed.
    public var descriptor: Int32? {
        isClosed.withLock { $0 ? nil : fileDescriptor }
    }

    /// Writes all of the bytes, retrying short writes and interruptions.
    /// - Parameter bytes: The bytes to send, typically one frame.
    /// - Throws: ``SocketError/socketFailed(operation:path:errno:)`` (`EPIPE` when the peer has gone).
    public func send(_ bytes: [UInt8]) throws {
        guard let descriptor else { throw SocketError.socketFailed(operation: "send", path: path, errno: EBADF) }
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                systemSend(descriptor, buffer.baseAddress! + sent, buffer.count - sent, noSignalFlag)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw SocketError.socketFailed(operation: "send", path: path, errno: errno)
            }
            sent += result
        }
    }

    /// Reads whatever bytes are available, blocking until there are some.
    /// - Parameter maximumLength: The most bytes to return.
    /// - Returns: The bytes read; empty when the peer closed the connection.
    /// - Throws: ``SocketError/socketFailed(operation:path:errno:)``.
    public func receive(maximumLength: Int = 64 * 1024) throws -> [UInt8] {
        guard let descriptor else { return [] }
        var buffer = [UInt8](repeating: 0, count: maximumLength)
        while true {
            let result = buffer.withUnsafeMutableBytes { systemRecv(descriptor, $0.baseAddress, $0.count, 0) }
            if result >= 0 { return Array(buffer.prefix(result)) }
            if errno == EINTR { continue }
            if self.descriptor == nil { return [] }
            throw SocketError.socketFailed(operation: "recv", path: path, errno: errno)
        }
    }

    /// Shuts the connection down in both directions; a thread blocked reading it sees the end of the
    /// stream, and later sends fail. The descriptor itself is released when the object is.
    public func close() {
        isClosed.withLock { closed in
            guard !closed else { return }
            _ = shutdown(fileDescriptor, Int32(SHUT_RDWR))
            closed = true
        }
    }
}
