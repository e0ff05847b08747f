/*
Abstract:
A temporary device root: the folder every process of one test shares as BA_DEVICE_ROOT.
*/

import Foundation

/// A fresh device root for one test, passed to each process as `BA_DEVICE_ROOT`, removed afterwards.
public final class TemporaryDeviceRoot: Sendable {
    /// The environment variable through which all processes find the device root.
    public static let environmentKey = "BA_DEVICE_ROOT"

    /// The device root's location.
    public let url: URL

    private let directory: TemporaryDirectory

    /// Creates an empty device root in a new temporary folder.
    /// - Throws: `TestSupportError` when the folder cannot be created.
    public init() throws {
        directory = try TemporaryDirectory(prefix: "wwdc-device")
        url = directory.url
    }

    /// The environment that points a process at this device root.
    public var environment: [String: String] {
        [Self.environmentKey: url.path]
    }

    /// The location of an item inside the device root, such as `run/backgroundassetsd.sock`.
    /// - Parameter relativePath: A path relative to the device root.
    /// - Returns: The item's file URL (the item need not exist).
    public func appending(_ relativePath: String) -> URL {
        url.appendingPathComponent(relativePath)
    }

    /// Deletes the device root and everything in it.
    public func remove() {
        directory.remove()
    }
}

/// Runs `body` with a new device root and removes it afterwards, also when `body` throws.
/// - Parameter body: The work that uses the device root.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws, or `TestSupportError` when the folder cannot be created.
public func withTemporaryDeviceRoot<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TemporaryDeviceRoot) async throws -> T
) async throws -> T {
    let root = try TemporaryDeviceRoot()
    defer { root.remove() }
    return try await body(root)
}
