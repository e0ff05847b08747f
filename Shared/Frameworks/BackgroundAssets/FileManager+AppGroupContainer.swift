/*
Abstract:
The app group container lookup Apple's Foundation provides, for platforms whose Foundation lacks it.
*/

import BackgroundAssetsIPC
import Foundation

#if !canImport(Darwin)
extension FileManager {
    /// Returns the container folder shared by the apps and extensions in an app group.
    ///
    /// The container lives under the device root (`containers/GROUP/`) and is created on first use,
    /// readable by its owner only.
    /// - Parameter groupIdentifier: The app group identifier, for example `group.com.example.apple-samplecode.WWDC-Sessions`.
    /// - Returns: The container's URL, or `nil` when the identifier is not a valid app group name.
    /// - Note: On Apple platforms this method belongs to Foundation and the container is
    ///   provisioned by the OS; here the device root stands in for the device.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        guard let container = DevicePaths.current().container(forAppGroup: groupIdentifier) else { return nil }
        // Private to its owner, as an app group container is on Apple's platforms.
        try? createDirectory(at: container, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return container
    }
}
#endif
