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
    /// - Parameter paths: The device root.
    public static func restrict(_ paths: DevicePaths) {
        for folder in [paths.root, paths.runDirectory, paths.systemDirectory, paths.stagingDirectory,
                       paths.appsDirectory, paths.containersDirectory] {
            chmod(folder.path, 0o700)
        }
        for file in contents(of: paths.systemDirectory) + contents(of: paths.stagingDirectory) {
            chmod(file.path, 0o600)
        }
        for container in contents(of: paths.containersDirectory) {
            chmod(container.path, 0o700)
        }
    }

    private static func contents(of folder: URL) -> [URL] {
        (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
    }
}
