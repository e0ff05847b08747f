/*
Abstract:
Keeps the device root private to its owner: the queue holds request headers, the containers hold apps' files.
*/

import BackgroundAssetsIPC
import Foundation

/// Makes the device root and everything the service keeps in it readable by the owner only.
///
/// On Apple's platforms an app's container and the system's download queue are private. Here the
/// queue stores each download's request headers (an app's `Authorization` token travels there)
/// and the containers hold each app's files, so the service, which owns the device root, takes
/// back whatever another process created with a looser mode: folders become 0700, files 0600.
public enum DeviceRootPrivacy {
    /// The mask the service runs with, so every file it creates is private from the start.
    public static let fileCreationMask: mode_t = 0o077

    /// Restricts the device root, `system/` (the queue, its WAL and shared-memory files, the log,
    /// the trace, the settings), `staging/`, `run/`, `apps/` and every app group container.
    ///
    /// A symbolic link among them is left alone, and so is what it points to: the service may run
    /// as root, and a link planted at `system/log` must not make any file of the machine private.
    /// - Parameter paths: The device root.
    /// - Returns: The links and entries whose mode could not be set, for the caller to log.
    @discardableResult
    public static func restrict(_ paths: DevicePaths) -> [LinkRefusingFile.Failure] {
        var failures: [LinkRefusingFile.Failure] = []
        func restrict(_ url: URL, to mode: mode_t) {
            if let failure = LinkRefusingFile.restrictMode(url, to: mode) { failures.append(failure) }
        }
        for folder in [paths.root, paths.runDirectory, paths.systemDirectory, paths.stagingDirectory,
                       paths.appsDirectory, paths.containersDirectory] {
            restrict(folder, to: 0o700)
        }
        for file in contents(of: paths.systemDirectory) + contents(of: paths.stagingDirectory) {
            restrict(file, to: 0o600)
        }
        for container in contents(of: paths.containersDirectory) {
            restrict(container, to: 0o700)
        }
        return failures
    }

    private static func contents(of folder: URL) -> [URL] {
        (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
    }
}
