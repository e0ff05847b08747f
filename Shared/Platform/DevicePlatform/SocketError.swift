/*
Abstract:
The errors of the device's Unix sockets: a path too long, a failed system call, a peer of another user.
*/

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An error raised while listening on, connecting to or moving bytes over a Unix socket.
public enum SocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A socket path does not fit in `sockaddr_un`.
    case socketPathTooLong(path: String, limit: Int)
    /// A system call on a socket failed.
    case socketFailed(operation: String, path: String, errno: Int32)
    /// The peer of a connection runs as another user.
    case peerNotAllowed(uid: UInt32, expected: UInt32)

    /// A sentence naming the offending value and what to do next.
    public var description: String {
        switch self {
        case let .socketPathTooLong(path, limit):
            "The socket path \(path) is longer than the \(limit) bytes a Unix socket allows. "
                + "Use a shorter device root (set BA_DEVICE_ROOT)."
        case let .socketFailed(operation, path, code):
            "The socket call \(operation) on \(path) failed: \(errnoText(code)) (errno \(code)). "
                + "Check that the device root is writable and the service is running."
        case let .peerNotAllowed(uid, expected):
            "A process of user \(uid) connected, but only user \(expected) may use this service; "
                + "the connection is refused. Run every process of the device as the same user."
        }
    }
}
