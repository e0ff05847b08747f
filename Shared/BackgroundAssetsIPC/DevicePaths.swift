/*
Abstract:
The layout of a device root: the one folder every process of the simulated device shares.
*/

import Foundation

/// The folders and files of a device root, the stand-in for a device's file system.
///
/// Every process (the system service, the app, its extension, the debug tool) finds the device
/// root the same way: `$BA_DEVICE_ROOT` when set, otherwise `.device/` in the current directory.
public struct DevicePaths: Sendable, Equatable {
    /// The environment variable that names the device root.
    public static let environmentVariable = "BA_DEVICE_ROOT"

    /// The device root itself, always absolute and standardized.
    public let root: URL

    /// Creates the paths for an explicit device root.
    /// - Parameter root: The device root; a relative path is resolved against the current directory.
    public init(root: URL) {
        self.root = root.standardizedFileURL.absoluteURL
    }

    /// The device root this process was started with: `$BA_DEVICE_ROOT`, or `.device/`.
    /// - Parameter environment: The environment to read; the process's own by default.
    public static func current(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> DevicePaths {
        let path = environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 } ?? ".device"
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return DevicePaths(root: URL(fileURLWithPath: path, isDirectory: true, relativeTo: cwd))
    }

    /// `run/`: the service's socket, lock and pid files.
    public var runDirectory: URL { root.appending(path: "run", directoryHint: .isDirectory) }

    /// `system/`: the service's store, configuration, settings, trace and log.
    public var systemDirectory: URL { root.appending(path: "system", directoryHint: .isDirectory) }

    /// `apps/`: one folder for each installed app.
    public var appsDirectory: URL { root.appending(path: "apps", directoryHint: .isDirectory) }

    /// `staging/`: partial downloads.
    public var stagingDirectory: URL { root.appending(path: "staging", directoryHint: .isDirectory) }

    /// `containers/`: one app group container for each app group.
    public var containersDirectory: URL { root.appending(path: "containers", directoryHint: .isDirectory) }

    /// The device log every process appends to.
    public var logFile: URL { systemDirectory.appending(path: "log", directoryHint: .notDirectory) }

    /// The container of an app group, or `nil` when the identifier could not be a folder name.
    ///
    /// App group identifiers come from Info.plists and API calls, so they are checked before they
    /// become a path: only letters, digits, `.`, `-` and `_`, not starting with a dot.
    /// - Parameter groupIdentifier: An app group identifier such as `group.com.example.sessions`.
    public func container(forAppGroup groupIdentifier: String) -> URL? {
        guard Self.isSafePathComponent(groupIdentifier) else { return nil }
        return containersDirectory.appending(path: groupIdentifier, directoryHint: .isDirectory)
    }

    /// Whether a string can be used as one path component without escaping the folder it names.
    /// - Parameter component: An identifier that is about to become a file or folder name.
    public static func isSafePathComponent(_ component: String) -> Bool {
        guard !component.isEmpty, component.utf8.count <= 255, !component.hasPrefix(".") else { return false }
        return component.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "-", "_": true
            default: false
            }
        }
    }
}
