/*
Abstract:
The service's listening socket: created 0600 in a 0700 folder, accepting only the same user.
*/

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A listening Unix-domain socket that hands out connections from processes of the same user.
public final class UnixSocketListener: Sendable {
    let socket: UnixSocket
    /// The device and inode of the socket file this listener created, so that closing removes
    /// that file only, never one a newer service bound at the same path.
    private let boundFile: (device: UInt64, inode: UInt64)?
    /// The socket's path.
    public var path: String { socket.path }

    /// Binds and listens at a path, replacing a stale socket file left by a dead service.
    ///
    /// The folder is created with mode 0700 (and tightened to 0700 if it exists), the socket
    /// gets mode 0600: other users can neither connect nor see the socket.
    /// - Note: The caller must hold the service's lock file before calling: replacing the socket of
    ///   a live service would steal its clients.
    /// - Parameters:
    ///   - path: The socket's path, usually ``DevicePaths/serviceSocket``.
    ///   - backlog: The number of pending connections the kernel queues.
    /// - Throws: ``SocketError/socketFailed(operation:path:errno:)`` or ``SocketError/socketPathTooLong(path:limit:)``.
    public init(path: String, backlog: Int32 = 64) throws {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SocketError.socketFailed(operation: "mkdir", path: folder, errno: EACCES)
        }
        guard chmod(folder, 0o700) == 0 else {
            throw SocketError.socketFailed(operation: "chmod", path: folder, errno: errno)
        }
        let descriptor = try UnixSocket.makeSocket(path: path)
        let listening = UnixSocket(descriptor: descriptor, path: path)
        if unlink(path) != 0, errno != ENOENT {
            throw SocketError.socketFailed(operation: "unlink", path: path, errno: errno)
        }
        // Between bind creating the file and chmod tightening it, the 0700 folder keeps everyone
        // else out. Not umask: it is the whole process's, and would change the mode of files that
        // other threads create meanwhile.
        let bound = try UnixSocket.withSocketAddress(path) { systemBind(descriptor, $0, $1) }
        let bindError = errno
        guard bound == 0 else { throw SocketError.socketFailed(operation: "bind", path: path, errno: bindError) }
        guard chmod(path, 0o600) == 0 else { throw SocketError.socketFailed(operation: "chmod", path: path, errno: errno) }
        guard listen(descriptor, backlog) == 0 else {
            throw SocketError.socketFailed(operation: "listen", path: path, errno: errno)
        }
        socket = listening
        boundFile = Self.identity(ofFileAt: path)
    }

    private static func identity(ofFileAt path: String) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// Waits for the next connection.
    /// - Returns: The connection and the peer's credentials.
    /// - Throws: ``SocketError/socketFailed(operation:path:errno:)``; after ``close()``, `EBADF` or `EINVAL`.
    public func accept() throws -> (connection: UnixSocket, peer: PeerCredentials) {
        guard let descriptor = socket.descriptor else {
            throw SocketError.socketFailed(operation: "accept", path: path, errno: EBADF)
        }
        while true {
            let client = systemAccept(descriptor)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                throw SocketError.socketFailed(operation: "accept", path: path, errno: errno)
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let connection = UnixSocket(descriptor: client, path: path)
            return (connection, try PeerCredentials(of: connection))
        }
    }

    /// Stops listening and removes the socket file, if it is still this listener's; a thread blocked
    /// in ``accept()`` returns an error.
    public func close() {
        socket.close()
        // A device root deleted and recreated under a stopping service holds a newer service's
        // socket at the same path: removing it would leave that service unreachable.
        if let boundFile, let current = Self.identity(ofFileAt: path), current == boundFile {
            unlink(path)
        }
    }
}
