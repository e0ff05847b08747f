/*
Abstract:
The sample's own app group settings, the ones the app and its extension use.
*/

import Foundation

extension SharedSettings {
    /// The locations of the sample's app group, ``appGroupIdentifier``, that the app and its extension share.
    ///
    /// Unlike ``init(appGroupIdentifier:)`` this cannot fail: the sample's identifier is a constant
    /// that names a valid container, so a failure would be a mistake in that constant.
    public static var shared: SharedSettings {
        guard let settings = try? SharedSettings() else {
            preconditionFailure("\(appGroupIdentifier) must be a valid app group identifier.")
        }
        return settings
    }
}
