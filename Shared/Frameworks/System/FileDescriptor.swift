/*
Abstract:
Apple's FileDescriptor from the System module: an open file's number, which its owner closes.
*/

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor, as the System module's `FileDescriptor` on Apple platforms.
///
/// Close it when you are done with it:
/// ```swift
/// let descriptor = try AssetPackManager.shared.descriptor(for: "Videos/Introduction.m4v")
/// defer { try? descriptor.close() }
/// ```
/// - Note: The members the asset-pack API needs; Apple's `open`, `read` and `write` families are
///   not provided (read through Foundation's `FileHandle(fileDescriptor:)`).
public struct FileDescriptor: RawRepresentable, Sendable, Hashable {
    /// The descriptor's number.
    public let rawValue: CInt

    /// Wraps a descriptor number.
    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// Closes the descriptor.
    /// - Throws: ``Errno`` when `close(2)` fails.
    public func close() throws {
        #if canImport(Glibc)
        let result = Glibc.close(rawValue)
        #else
        let result = Darwin.close(rawValue)
        #endif
        guard result == 0 else { throw Errno(rawValue: errno) }
    }
}
