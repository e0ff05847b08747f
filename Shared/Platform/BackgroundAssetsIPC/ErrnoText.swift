/*
Abstract:
The one way an errno value becomes words in an error message.
*/

#if canImport(Glibc)
import Glibc
#endif

/// The text of an `errno` value, such as "No such file or directory", for error messages.
/// - Parameter code: The value; the calling thread's current `errno` by default.
public func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
