/*
Abstract:
The layout of a device root: the one folder every process of the simulated device shares.
*/

import Foundation

/// The folders and files of a device root, the stand-in for a device's file system.
///
/// Every process (the system service, the app, its extension, the debug tool) finds the device
/// root the same way: `$BA_DEVICE_ROOT` when set, otherwise `.device/` in the package the current
/// directory is in, found as SwiftPM finds `Package.swift`, so a command run from a subfolder uses
/// the same device instead of starting a second one.
public struct DevicePaths: Sendable, Equatable {
    /// The environment variable that names the device root.
    public static let environmentVariable = "BA_DEVICE_ROOT"

    /// The device root itself, always absolute and standardized.
    public let root: URL

    /// Creates the paths for an explicit device root.
    /// - Parameter root: The device root; a relative path is resolved against the current directory.
    public init(root: URL) {
        self.root = root.standardizedFileURL.absoluteURL
        // Built once: the service names a staging file and a container for every download.
        stagingDirectory = self.root.appending(path: "staging", directoryHint: .isDirectory)
        containersDirectory = self.root.appending(path: "containers", directoryHint: .isDirectory)
    }

    /// The device root this process was started with: `$BA_DEVICE_ROOT`, or the package's `.device/`.
    /// - Parameter environment: The environment to read; the process's own by default.
    public static func current(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> DevicePaths {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        if let path = environment[environmentVariable], !path.isEmpty {
            return DevicePaths(root: URL(fileURLWithPath: path, isDirectory: true, relativeTo: cwd))
        }
        return DevicePaths(root: defaultRoot(from: cwd))
    }

    /// `.device/` in the nearest folder, from `directory` up, that has one or has a `Package.swift`;
    /// `.device/` in `directory` itself when none does (outside any package).
    /// - Parameter directory: Where the search starts, usually the current directory.
    public static func defaultRoot(from directory: URL) -> URL {
        let fileManager = FileManager.default
        var folder = directory.standardizedFileURL
        while true {
            let device = folder.appending(path: ".device", directoryHint: .isDirectory)
            if fileManager.fileExists(atPath: device.path)
                || fileManager.fileExists(atPath: folder.appending(path: "Package.swift").path)
            {
                return device
            }
            let parent = folder.deletingLastPathComponent()
            guard parent.path != folder.path else { break }
            folder = parent
        }
        return directory.appending(path: ".device", directoryHint: .isDirectory)
    }

    /// `run/`: the service's socket, lock and pid files.
    public var runDirectory: URL { root.appending(path: "run", directoryHint: .isDirectory) }

    /// `system/`: the service's store, configuration, settings, trace and log.
    public var systemDirectory: URL { root.appending(path: "system", directoryHint: .isDirectory) }

    /// `apps/`: one folder for each installed app.
    public var appsDirectory: URL { root.appending(path: "apps", directoryHint: .isDirectory) }

    /// `staging/`: partial downloads.
    public let stagingDirectory: URL

    /// `containers/`: one app group container for each app group.
    public let containersDirectory: URL

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
