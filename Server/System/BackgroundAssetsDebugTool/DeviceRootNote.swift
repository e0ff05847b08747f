/*
Abstract:
The sentence that names the device root when it is not the one a reader expects.
*/

import BackgroundAssetsIPC
import Foundation

/// Names the device root a run uses when it is not `.device/` of the current folder's package.
///
/// The docs say every command acts on `.device/` in the package's folder; a `BA_DEVICE_ROOT` left set
/// in the shell, a root found in a folder above, or one made in a folder outside any package would
/// otherwise act on another device without a word.
public enum DeviceRootNote {
    /// The note for a run, or `nil` when the root is the expected one.
    /// - Parameters:
    ///   - paths: The device root the run uses.
    ///   - environment: The run's environment, where `BA_DEVICE_ROOT` may be set.
    ///   - currentDirectory: The folder the run started in.
    /// - Returns: A sentence such as `Using device root /tmp/x (from BA_DEVICE_ROOT).`
    public static func text(
        for paths: DevicePaths, environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    ) -> String? {
        let root = canonical(paths.root)
        let expected = DevicePaths.defaultRoot(from: currentDirectory)
        let variable = DevicePaths.environmentVariable
        if let value = environment[variable], !value.isEmpty {
            guard root != canonical(expected) else { return nil }
            return "Using device root \(root) (from \(variable))."
        }
        let here = currentDirectory.appending(path: ".device", directoryHint: .isDirectory)
        guard root != canonical(here) else {
            // Outside any package a new device is made here, which is rarely what was meant.
            let fileManager = FileManager.default
            guard !fileManager.fileExists(atPath: here.path),
                  !fileManager.fileExists(atPath: currentDirectory.appending(path: "Package.swift").path) else { return nil }
            return "Making a new device root, \(root): no package was found from this folder up. Run the command in "
                + "the package's folder to use its device, or set \(variable) to choose one."
        }
        return "Using device root \(root), the one of the package in \(URL(fileURLWithPath: root).deletingLastPathComponent().path)."
    }

    /// The path with links resolved, so one folder reached two ways is seen as one.
    private static func canonical(_ url: URL) -> String {
        url.standardizedFileURL.resolvingSymlinksInPath().path
    }
}
