/*
Abstract:
The environment of a process the service launches from an installed bundle: an extension, or an app in the background.
*/

import BackgroundAssetsIPC
import Foundation

/// What a process the service launches is told about itself: the device root, which app it is, its
/// role, and its app's manifest URL.
///
/// The framework reads these back (`ProcessIdentity`, `SharedSettings`): they stand in for what a
/// process on Apple platforms learns from its bundle and from the system that launched it.
enum LaunchEnvironment {
    /// The environment for a process of an installed app: this process's own, plus who it is.
    /// - Parameters:
    ///   - app: The app's bundle identifier.
    ///   - role: Whether it runs as the app or as its extension.
    ///   - paths: The device root.
    ///   - manifestURL: The app's `BAManifestURL`, which stands in for reading its Info.plist; `nil`
    ///     for an app without Background Assets.
    ///   - extra: More variables, such as the one that tells an app it was launched for its tasks.
    /// - Returns: The whole environment.
    static func of(
        app: String, role: Hello.Role, deviceRoot paths: DevicePaths, manifestURL: URL?, extra: [String: String] = [:]
    ) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[DevicePaths.environmentVariable] = paths.root.path
        environment["BA_BUNDLE_IDENTIFIER"] = app
        environment["BA_PROCESS_ROLE"] = role.rawValue
        environment["BA_MANIFEST_URL"] = manifestURL?.absoluteString
        return environment.merging(extra) { $1 }
    }
}
