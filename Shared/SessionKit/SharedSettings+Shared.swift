/*
Abstract:
The sample's own app group settings, the ones the app and its extension use.
*/

import Foundation

extension SharedSettings {
    /// The locations of the sample's app group, ``appGroupIdentifier``, that the app and its extension share.
    ///
    /// The group comes from the process's Info.plist. A value that cannot name a container is a
    /// mistake in that file, caught at install, so finding one here stops the process with the fix.
    /// Found once per process: the extension asks for it with every file it moves.
    public static let shared: SharedSettings = {
        guard let settings = try? SharedSettings() else {
            preconditionFailure(
                "The app group \(appGroupIdentifier.debugDescription) in Info.plist's \(appGroupIdentifierKey) is not a "
                    + "valid app group identifier. Fix it and run backgroundassets-debug install again.")
        }
        return settings
    }()
}
