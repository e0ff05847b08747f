/*
Abstract:
Who is on the other end of a Unix socket, as the kernel reports it (SO_PEERCRED).
*/

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process and user on the other end of a connection, from the kernel rather than the peer.
public struct PeerCredentials: Sendable, Equatable {
    /// The peer's process id (0 where the platform does not report it).
    public var processIdentifier: Int32
    /// The peer's user id.
    public var userIdentifier: UInt32
    /// The peer's group id.
    public var groupIdentifier: UInt32

    /// Creates credentials from known values.
    /// - Parameters:
    ///   - processIdentifier: The peer's process id.
    ///   - userIdentifier: The peer's user id.
    ///   - groupIdentifier: The peer's group id.
    public init(processIdentifier: Int32, userIdentifier: UInt32, groupIdentifier: UInt32) {
        self.processIdentifier = processIdentifier
        self.userIdentifier = userIdentifier
        self.groupIdentifier = groupIdentifier
    }

    /// Reads the credentials of a connected socket's peer.
    /// - Parameter connection: A connected socket.
    /// - Throws: ``SocketError/socketFailed(operation:path:errno:)``.
    public init(of connection: UnixSocket) throws {
        guard let descriptor = connection.descriptor else {
            throw SocketError.socketFailed(operation: "getsockopt", path: connection.path, errno: EBADF)
        }
        #if canImport(Glibc)
        var credentials = LinuxPeerCredentials()
        var length = socklen_t(MemoryLayout<LinuxPeerCredentials>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw SocketError.socketFailed(operation: "getsockopt", path: connection.path, errno: errno)
        }
        self.init(processIdentifier: credentials.pid, userIdentifier: credentials.uid, groupIdentifier: credentials.gid)
        #else
        var uid = uid_t()
        var gid = gid_t()
        guard getpeereid(descriptor, &uid, &gid) == 0 else {
            throw SocketError.socketFailed(operation: "getpeereid", path: connection.path, errno: errno)
        }
        self.init(processIdentifier: 0, userIdentifier: uid, groupIdentifier: gid)
        #endif
    }

    /// Checks that the peer runs as the same user as this process.
    /// - Parameter expected: The only user allowed; this process's effective user by default.
    /// - Throws: ``SocketError/peerNotAllowed(uid:expected:)``.
    public func requireUser(_ expected: UInt32 = geteuid()) throws {
        guard userIdentifier == expected else {
            throw SocketError.peerNotAllowed(uid: userIdentifier, expected: expected)
        }
    }
}

#if canImport(Glibc)
/// The layout of Linux's `struct ucred`, which Glibc's module hides behind `_GNU_SOURCE`.
private struct LinuxPeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
#endif
