/*
Abstract:
Apple's Errno from the System module: the error a system call reports, with the C library's words for it.
*/

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An error number a system call set, thrown by ``FileDescriptor``, as the System module's `Errno`.
public struct Errno: RawRepresentable, Error, Sendable, Hashable, CustomStringConvertible {
    /// The error number, such as `EBADF`.
    public let rawValue: CInt

    /// Wraps an error number.
    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The C library's description of the error, such as "Bad file descriptor".
    public var description: String {
        guard let text = strerror(rawValue) else { return "error \(rawValue)" }
        return String(cString: text)
    }

    /// Bad file descriptor (`EBADF`).
    public static var badFileDescriptor: Errno { Errno(rawValue: EBADF) }
    /// Interrupted function call (`EINTR`).
    public static var interrupted: Errno { Errno(rawValue: EINTR) }
    /// Input/output error (`EIO`).
    public static var ioError: Errno { Errno(rawValue: EIO) }
    /// No such file or directory (`ENOENT`).
    public static var noSuchFileOrDirectory: Errno { Errno(rawValue: ENOENT) }
    /// Permission denied (`EACCES`).
    public static var permissionDenied: Errno { Errno(rawValue: EACCES) }
}
