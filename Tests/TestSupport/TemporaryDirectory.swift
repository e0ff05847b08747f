/*
Abstract:
A unique temporary folder that is removed when the test is done with it.
*/

import Foundation

/// A unique, empty folder under the system's temporary directory, removed on `remove()` or deinit.
///
/// Keep the instance alive for as long as the folder is in use, or prefer `withTemporaryDirectory`.
/// A test process that crashes or is killed runs no deinit, so each folder's name carries the id of
/// the process that made it (`PREFIX-tPID.XXXXXX`), and the first folder a test process makes
/// removes the folders of test processes that no longer exist (``StaleTemporaryFolders``).
public final class TemporaryDirectory: Sendable {
    /// The folder's location.
    public let url: URL

    /// Creates a new, empty, uniquely named folder.
    /// - Parameter prefix: The start of the folder's name, to recognise it when debugging.
    /// - Throws: `TestSupportError` when the folder cannot be created.
    public init(prefix: String = "wwdc-tests") throws {
        StaleTemporaryFolders.removeOnce()
        TestLogs.captureLogLines()
        let template = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
            .appendingPathComponent(StaleTemporaryFolders.name(prefix: prefix)).path
        var bytes = Array(template.utf8CString)
        guard let created = mkdtemp(&bytes) else {
            throw TestSupportError("Could not create a temporary folder from \(template): errno \(errno).")
        }
        url = URL(fileURLWithPath: String(cString: created), isDirectory: true)
    }

    deinit {
        remove()
    }

    /// The location of an item inside the folder.
    /// - Parameter relativePath: A path relative to the folder, such as `catalog/manifest.json`.
    /// - Returns: The item's file URL (the item need not exist).
    public func appending(_ relativePath: String) -> URL {
        url.appendingPathComponent(relativePath)
    }

    /// Deletes the folder and everything in it; calling it again does nothing.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs `body` with a new temporary folder and removes the folder afterwards, also when `body` throws.
/// - Parameters:
///   - prefix: The start of the folder's name.
///   - body: The work that uses the folder.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws, or `TestSupportError` when the folder cannot be created.
public func withTemporaryDirectory<T>(
    prefix: String = "wwdc-tests",
    isolation: isolated (any Actor)? = #isolation,
    _ body: (URL) async throws -> T
) async throws -> T {
    let directory = try TemporaryDirectory(prefix: prefix)
    defer { directory.remove() }
    return try await body(directory.url)
}
