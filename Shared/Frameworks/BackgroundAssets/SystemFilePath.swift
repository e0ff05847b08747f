/*
Abstract:
FilePath and FileDescriptor, which Apple's asset-pack API takes and returns, for platforms without the System module.
*/

#if canImport(System)
@_exported import System
#else
import Foundation

/// A file path, as the System module's `FilePath` on Apple platforms: a string, written as a literal.
///
/// ```swift
/// let data = try AssetPackManager.shared.contents(at: "Videos/Introduction.m4v")
/// ```
/// - Note: Linux toolchains ship no System module, so the asset-pack API uses this stand-in with
///   the members it needs; on Apple platforms the framework re-exports `System` instead.
public struct FilePath: Sendable, Hashable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The path as a string.
    public var string: String

    /// Creates a path from a string.
    public init(_ string: String) {
        self.string = string
    }

    /// Creates a path from a string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Whether the path starts at the root (`/`).
    public var isAbsolute: Bool { string.hasPrefix("/") }

    /// Whether the path is relative to a folder rather than to the root.
    public var isRelative: Bool { !isAbsolute }

    /// The path as a string.
    public var description: String { string }
}

/// An open file descriptor, as the System module's `FileDescriptor` on Apple platforms.
///
/// Close it when you are done with it:
/// ```swift
/// let descriptor = try AssetPackManager.shared.descriptor(for: "Videos/Introduction.m4v")
/// defer { try? descriptor.close() }
/// ```
/// - Note: A stand-in with the members the asset-pack API needs; see ``FilePath``.
public struct FileDescriptor: RawRepresentable, Sendable, Hashable {
    /// The descriptor's number.
    public let rawValue: CInt

    /// Wraps a descriptor number.
    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// Closes the descriptor.
    /// - Throws: `POSIXError` when `close(2)` fails.
    public func close() throws {
        guard Foundation.close(rawValue) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }
}
#endif
