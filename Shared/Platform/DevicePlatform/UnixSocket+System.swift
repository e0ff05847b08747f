/*
Abstract:
The system calls behind `UnixSocket`, named so they do not collide with the type's own methods.
*/

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
let streamSocketType = Int32(SOCK_STREAM.rawValue)
/// Writing to a closed peer must fail with EPIPE rather than kill the process with SIGPIPE.
let noSignalFlag = Int32(MSG_NOSIGNAL)
#else
let streamSocketType = SOCK_STREAM
let noSignalFlag: Int32 = 0
#endif

func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

func systemBind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    bind(fd, address, length)
}

func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(fd, bytes, count, flags)
}

func systemRecv(_ fd: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    recv(fd, bytes, count, flags)
}

func systemAccept(_ fd: Int32) -> Int32 {
    accept(fd, nil, nil)
}

func systemClose(_ fd: Int32) -> Int32 {
    close(fd)
}

extension UnixSocket {
    /// The longest path `sockaddr_un` holds, leaving room for the terminating NUL.
    public static var maximumPathLength: Int {
        MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
    }

    /// Creates a close-on-exec stream socket, so launched extensions do not inherit it.
    static func makeSocket(path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, streamSocketType, 0)
        guard descriptor >= 0 else { throw SocketError.socketFailed(operation: "socket", path: path, errno: errno) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return descriptor
    }

    /// Calls `body` with a `sockaddr_un` for `path`.
    static func withSocketAddress<Result>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result
    ) throws -> Result {
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathLength, !bytes.contains(0) else {
            throw SocketError.socketPathTooLong(path: path, limit: maximumPathLength)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            sunPath.copyBytes(from: bytes)
            sunPath[bytes.count] = 0
        }
        return try withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                try body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}
