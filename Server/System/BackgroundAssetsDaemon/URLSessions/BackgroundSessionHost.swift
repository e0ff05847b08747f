/*
Abstract:
The file work of background sessions: handing finished downloads over inside the app's container, and clearing what is left.
*/

import BackgroundAssetsIPC
import Foundation

/// Does the I/O the background-session state asks for, under one device root.
///
/// Every method blocks while it works, so the service calls them off its actor.
public struct BackgroundSessionHost: Sendable {
    /// The device root.
    public let paths: DevicePaths

    /// Creates a host for a device root.
    public init(paths: DevicePaths) {
        self.paths = paths
    }

    /// The folder a session's files are handed over in: inside the app group's container when the
    /// session names one (`sharedContainerIdentifier`), else inside the app's own folder. Apple's
    /// system uses `Library/Caches/com.apple.nsurlsessiond/Downloads/BUNDLE-ID` the same way.
    public func handOverDirectory(for app: String, appGroup: String?) -> URL? {
        let base: URL?
        if let appGroup {
            base = paths.container(forAppGroup: appGroup)
        } else {
            base = paths.appDirectory(forBundleIdentifier: app)?.appending(path: "Data", directoryHint: .isDirectory)
        }
        return base?.appending(path: "Library/Caches/com.apple.nsurlsessiond/Downloads", directoryHint: .isDirectory)
            .appending(path: app, directoryHint: .isDirectory)
    }

    /// Moves a finished download into the session's hand-over folder, as `CFNetworkDownload_XXXXXX.tmp`.
    /// - Returns: The file the app's delegate receives; the app moves it, or the framework deletes it.
    /// - Throws: A `CocoaError` when the folder cannot be made or the file cannot be moved.
    public func handOver(_ file: URL, for app: String, appGroup: String?) throws -> URL {
        guard let directory = handOverDirectory(for: app, appGroup: appGroup) else {
            throw CocoaError(.fileWriteInvalidFileName, userInfo: [
                NSLocalizedDescriptionKey: "The app \(app) or its app group \(appGroup ?? "") cannot name a folder; check the session's sharedContainerIdentifier.",
            ])
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let name = "CFNetworkDownload_\(UUID().uuidString.prefix(6)).tmp"
        let destination = directory.appending(path: name, directoryHint: .notDirectory)
        try FileManager.default.moveItem(at: file, to: destination)
        return destination
    }

    /// Deletes handed-over files the app never took, left by a crash of the app or the service.
    /// - Returns: How many files were removed.
    @discardableResult
    public func removeLeftovers(for app: String, appGroup: String?) -> Int {
        guard let directory = handOverDirectory(for: app, appGroup: appGroup),
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return 0 }
        let leftovers = names.filter { $0.hasPrefix("CFNetworkDownload_") }
        for name in leftovers { try? FileManager.default.removeItem(at: directory.appending(path: name)) }
        return leftovers.count
    }
}
