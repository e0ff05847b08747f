/*
Abstract:
Where the installed apps live under the device root: one folder per bundle identifier under apps/.
*/

import Foundation

extension DevicePaths {
    /// The name of an installed app's record inside its folder.
    public static let appRecordFileName = "app.json"

    /// `apps/ID/`: an installed app's folder, or `nil` when the identifier could not be a folder name.
    ///
    /// Bundle identifiers come from Info.plists, so they are checked before they become a path.
    /// - Parameter bundleIdentifier: The app's `CFBundleIdentifier`.
    public func appDirectory(forBundleIdentifier bundleIdentifier: String) -> URL? {
        guard Self.isSafePathComponent(bundleIdentifier) else { return nil }
        return appsDirectory.appending(path: bundleIdentifier, directoryHint: .isDirectory)
    }

    /// `apps/ID/app.json`: an installed app's record, or `nil` when the identifier could not be a folder name.
    /// - Parameter bundleIdentifier: The app's `CFBundleIdentifier`.
    public func appRecordFile(forBundleIdentifier bundleIdentifier: String) -> URL? {
        appDirectory(forBundleIdentifier: bundleIdentifier)?
            .appending(path: Self.appRecordFileName, directoryHint: .notDirectory)
    }
}
